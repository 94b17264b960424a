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
 * played for a target (`r.target`) is in chance of reaching it, each
 * reason in expected points beside the chance.
 */
export function showCoach({ summary, mistakes, holder }, r, optionText) {
  const reach = r.target !== undefined;
  // What the dice brought and what was given away (a target's tie
  // allowance may leave a loss a rounding below 0).
  const [value, brought, given] = reach
    ? [(x) => percent(x), (x) => `${percent(x, true)} chance`, (x) => `${percent(Math.max(0, x))} chance`]
    : [(x) => x.toFixed(2), (x) => `${signed(x)} points`, (x) => x.toFixed(2)];
  const expected = reach ? `chance of ${r.target} or more` : "expected";
  const outcome = reach && r.score !== undefined ? (r.reached ? `: ${r.target} reached` : `: short of ${r.target}`) : "";
  const where = r.score === undefined ? `Under way (${r.open} boxes open): ${expected} now ${value(r.now)}` : `Score ${r.score}${outcome}`;
  const none = reach ? `play for ${r.target} has no reference players' figures` : "these rules have no reference players' figures";
  const rating = r.rating === null ? `no rating (${none})` : `rating ${Math.round(r.rating)} (Elo scale, random play 0)`;
  summary.textContent = `${where}, ${expected} at the start ${value(r.start)}. The dice brought ${brought(r.luck)}; the decisions gave away ${given(r.loss)}. Accuracy ${r.accuracy.toFixed(1)} of 100, ${rating}.`;
  mistakes.replaceChildren(...r.largest_mistakes.map((line) => {
    const d = r.decisions.find((x) => x.line === line);
    const li = document.createElement("li");
    Object.assign(li.dataset, { line: String(line), loss: String(d.loss), reason: d.reason?.text ?? "" });
    const left = d.rerolls === 1 ? "1 reroll" : `${d.rerolls} rerolls`;
    li.textContent = `Line ${line}: ${d.dice} with ${left} left: ${optionText(d.chosen)} gave away ${given(d.loss)} (best: ${optionText(d.best)}).`;
    if (d.reason) {
      const total = Object.values(d.reason.parts).reduce((a, b) => a + b, 0);
      const why = reach
        ? `Beside the chance, in each box's expected points (the best for the target less yours, ${signed(total)} in all)`
        : "Why, in each box's expected points (the best less yours)";
      li.append(document.createElement("br"), `${why}: ${d.reason.text}.`);
    }
    return li;
  }));
  holder.dataset.review = JSON.stringify(r);
}
