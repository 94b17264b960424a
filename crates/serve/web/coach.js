// The coach's review of a game as the backend gives it (what `reader
// review NAME FILE --json` prints): the score, what the dice brought and
// what the decisions gave away, the accuracy and rating, then the largest
// mistakes, each with why the best option is better where the backend
// holds the parts table. Shown by the rule sets' tab and, for Yatzy and
// Yahtzee, by the review of a game played on the page.

const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;
/** A chance in percent, signed or not. */
const percent = (x, sign = false) => `${sign ? (x >= 0 ? "+" : "−") : ""}${(100 * Math.abs(x)).toFixed(2)} %`;

/**
 * Shows review `r` in `summary` (a paragraph) and `mistakes` (a list, one
 * item a mistake with its line, loss and reason in its data), keeping `r`
 * as JSON in `holder`'s `data-review`; `optionText` words an option. A game
 * played for a target (`r.target`) is in chance of reaching it, and a
 * game against someone (`r.players`) in each player's chance of winning,
 * each reason in expected points beside the chance.
 */
export function showCoach({ summary, mistakes, holder }, r, optionText) {
  const reach = r.target !== undefined;
  // Against someone: each player's figures, in their chance of winning.
  const two = Array.isArray(r.players);
  const chance = reach || two;
  // What the dice brought and what was given away (a table's tie
  // allowance may leave a loss a rounding below 0).
  const [value, brought, given] = chance
    ? [(x) => percent(x), (x) => `${percent(x, true)} chance`, (x) => `${percent(Math.max(0, x))} chance`]
    : [(x) => x.toFixed(2), (x) => `${signed(x)} points`, (x) => x.toFixed(2)];
  const expected = two ? "player 1's chance of winning" : reach ? `chance of ${r.target} or more` : "expected";
  const none = two
    ? "play against someone has no reference players' figures"
    : reach ? `play for ${r.target} has no reference players' figures` : "these rules have no reference players' figures";
  const rated = (x) => (x.rating === null ? `no rating (${none})` : `rating ${Math.round(x.rating)} (Elo scale, random play 0)`);
  const figures = (x) => `dice brought ${brought(x.luck)}; the decisions gave away ${given(x.loss)}. Accuracy ${x.accuracy.toFixed(1)} of 100, ${rated(x)}.`;
  if (two) {
    const won = r.won_at_once;
    const outcome = won ? `player ${won.player} wins at once with a ${won.category} served` : r.outcome === 0.5 ? "a tie" : `player ${r.outcome === 1 ? 1 : 2} wins`;
    const where = r.scores === undefined
      ? `Under way (player 1 ${r.scored[0]} points, ${r.open[0]} boxes open; player 2 ${r.scored[1]}, ${r.open[1]} open): ${expected} now ${value(r.now)}`
      : `Game over: player 1 ${r.scores[0]}, player 2 ${r.scores[1]}: ${outcome}`;
    const each = r.players.map((p) => `Player ${p.player}: their ${figures(p)}`);
    summary.textContent = `${where}; ${expected} at the start ${value(r.start)}. ${each.join(" ")}`;
  } else {
    const outcome = reach && r.score !== undefined ? (r.reached ? `: ${r.target} reached` : `: short of ${r.target}`) : "";
    const where = r.score === undefined ? `Under way (${r.open} boxes open): ${expected} now ${value(r.now)}` : `Score ${r.score}${outcome}`;
    summary.textContent = `${where}, ${expected} at the start ${value(r.start)}. The ${figures(r)}`;
  }
  mistakes.replaceChildren(...r.largest_mistakes.map((line) => {
    const d = r.decisions.find((x) => x.line === line);
    const li = document.createElement("li");
    Object.assign(li.dataset, { line: String(line), loss: String(d.loss), reason: d.reason?.text ?? "" });
    if (two) li.dataset.player = String(d.player);
    const left = d.rerolls === 1 ? "1 reroll" : `${d.rerolls} rerolls`;
    const who = two ? `, player ${d.player}` : "";
    li.textContent = `Line ${line}${who}: ${d.dice} with ${left} left: ${optionText(d.chosen)} gave away ${given(d.loss)} (best: ${optionText(d.best)}).`;
    if (d.reason) {
      const total = Object.values(d.reason.parts).reduce((a, b) => a + b, 0);
      const goal = two ? "to win" : "for the target";
      const why = chance
        ? `Beside the chance, in each box's expected points (the best ${goal} less yours, ${signed(total)} in all)`
        : "Why, in each box's expected points (the best less yours)";
      li.append(document.createElement("br"), `${why}: ${d.reason.text}.`);
    }
    return li;
  }));
  holder.dataset.review = JSON.stringify(r);
}
