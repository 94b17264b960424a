// The coach's review of a game as the backend gives it (what `reader
// review NAME FILE --json` prints): the score, what the dice brought and
// what the decisions gave away, the accuracy and rating, then the largest
// mistakes, each with why the best option is better where the backend
// holds the parts table, and its running curve. Shown by the rule sets'
// tab and by the review of a sheet game played on the page (Yatzy,
// Yahtzee, yazy, Maxi Yatzy); the 10000 tab draws the same curve.

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
  showCurve(summary, r);
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

const SVG = "http://www.w3.org/2000/svg";
/** The curve's drawing box, in SVG units (it scales to the page's width). */
const [WIDTH, HEIGHT, PAD] = [360, 150, 4];
/** Each player's colour: player 1's (or a game alone's), then player 2's. */
const COLOURS = ["#1b6ac9", "#c2410c"];

/**
 * The running curve of review `r` (as `reader review NAME FILE --json`
 * gives it, a game against someone too) shown right after `summary`, in
 * place of the one before: after each decision, what the dice have
 * brought so far (a solid line) and what the decisions have given away so
 * far (dashed, below 0), each player's in their own colour. Each line ends
 * at the review's figure for it, since a review's luck and loss are its
 * decisions' summed; its values are in the line's `data-values`. No
 * review (null), or one of no decisions, leaves no curve.
 */
export function showCurve(summary, r) {
  if (summary.nextElementSibling?.classList.contains("luck-curve")) summary.nextElementSibling.remove();
  if (!r?.decisions.length) return;
  const seats = Array.isArray(r.players) ? r.players.map((p) => p.player) : [null];
  const lines = seats.flatMap((player) => {
    const at = [0];
    const [dice, decisions] = [[0], [0]];
    r.decisions.forEach((d, i) => {
      if (player !== null && d.player !== player) return;
      at.push(i + 1);
      dice.push(dice.at(-1) + d.luck);
      decisions.push(decisions.at(-1) - d.loss);
    });
    return [{ player, series: "dice", at, values: dice }, { player, series: "decisions", at, values: decisions }];
  });
  const all = lines.flatMap((l) => l.values);
  const [low, high] = [Math.min(0, ...all), Math.max(0, ...all)];
  const x = (i) => PAD + ((WIDTH - 2 * PAD) * i) / r.decisions.length;
  const y = (v) => PAD + ((HEIGHT - 2 * PAD) * (high - v)) / (high - low || 1);
  const el = (name, attrs) => {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };
  const chance = Array.isArray(r.players) || r.target !== undefined;
  // Signed where below 0, as the review's figures are written.
  const unit = (v) => (chance ? percent(v, v < 0) : v < 0 ? signed(v) : v.toFixed(2));
  const who = (player) => (player === null ? "" : `player ${player}'s `);
  const svg = el("svg", { class: "luck-curve", viewBox: `0 0 ${WIDTH} ${HEIGHT + 14}`, width: "100%", role: "img" });
  const words = lines.map((l) => `${who(l.player)}${l.series === "dice" ? "dice brought" : "decisions gave away"} ${unit(Math.abs(l.values.at(-1)))}`);
  svg.setAttribute("aria-label", `Over the game, decision by decision: ${words.join(", ")}.`);
  svg.append(el("line", { x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0), stroke: "#888", "stroke-width": 0.5 }));
  for (const l of lines) {
    const colour = COLOURS[seats.indexOf(l.player)];
    const points = l.at.map((i, k) => `${x(i).toFixed(1)},${y(l.values[k]).toFixed(1)}`).join(" ");
    const line = el("polyline", { points, fill: "none", stroke: colour, "stroke-width": 1.5, ...(l.series === "dice" ? {} : { "stroke-dasharray": "4 3" }) });
    Object.assign(line.dataset, { series: l.series, player: String(l.player ?? 1), values: JSON.stringify(l.values.slice(1)) });
    svg.append(line);
  }
  const text = (words, attrs) => {
    const t = el("text", { "font-size": 10, fill: "currentColor", ...attrs });
    t.textContent = words;
    return t;
  };
  // The scale at the right edge, and which line is which below.
  svg.append(text(unit(high), { x: WIDTH - PAD, y: PAD + 9, "text-anchor": "end" }), text(unit(low), { x: WIDTH - PAD, y: HEIGHT - PAD, "text-anchor": "end" }));
  svg.append(text("solid: the dice so far; dashed: the decisions", { x: PAD, y: HEIGHT + 11 }));
  summary.after(svg);
}
