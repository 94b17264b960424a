// The coach's review of a game as the backend gives it (what `reader
// review NAME FILE --json` prints): the score, what the dice brought and
// what the decisions gave away, the accuracy and rating, then the largest
// mistakes, each with why the best option is better where the backend
// holds the parts table. Shown by the rule sets' tab and, for Yatzy and
// Yahtzee, by the review of a game played on the page.

const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(2)}`;

/**
 * Shows review `r` in `summary` (a paragraph) and `mistakes` (a list, one
 * item a mistake with its line, loss and reason in its data), keeping `r`
 * as JSON in `holder`'s `data-review`; `optionText` words an option.
 */
export function showCoach({ summary, mistakes, holder }, r, optionText) {
  const where = r.score === undefined ? `Under way (${r.open} boxes open): expected now ${r.now.toFixed(2)}` : `Score ${r.score}`;
  const rating = r.rating === null ? "no rating (these rules have no reference players' figures)" : `rating ${Math.round(r.rating)} (Elo scale, random play 0)`;
  summary.textContent = `${where}, expected at the start ${r.start.toFixed(2)}. The dice brought ${signed(r.luck)} points; the decisions gave away ${r.loss.toFixed(2)}. Accuracy ${r.accuracy.toFixed(1)} of 100, ${rating}.`;
  mistakes.replaceChildren(...r.largest_mistakes.map((line) => {
    const d = r.decisions.find((x) => x.line === line);
    const li = document.createElement("li");
    Object.assign(li.dataset, { line: String(line), loss: String(d.loss), reason: d.reason?.text ?? "" });
    const left = d.rerolls === 1 ? "1 reroll" : `${d.rerolls} rerolls`;
    li.textContent = `Line ${line}: ${d.dice} with ${left} left: ${optionText(d.chosen)} gave away ${d.loss.toFixed(2)} (best: ${optionText(d.best)}).`;
    if (d.reason) li.append(document.createElement("br"), `Why, in each box's expected points (the best less yours): ${d.reason.text}.`);
    return li;
  }));
  holder.dataset.review = JSON.stringify(r);
}
