// The one-question advisors: threes (lowest total wins, a 3 counts 0) and
// one throw of 10000 (for the most points, or with both totals to win the
// two-player game). Answers as `reader lookup threes|tenk|duel ... --json`.
import { $, cell, percent, tableFor } from "./page.js";
import { DUEL_TABLES } from "./duel.js";

/** The form's fields that were filled in. */
const filled = (form) => Object.fromEntries([...new FormData(form)].filter(([, v]) => v !== ""));

/**
 * Asks table `id` the `game` question `query` for the advisor `name`: `show`
 * fills #NAME-advice and #NAME-options with the answer, #NAME-source says
 * which table answered; a refusal is shown in #NAME-advice.
 */
async function advise(name, id, game, query, show) {
  const advice = $(`#${name}-advice`);
  const source = $(`#${name}-source`);
  $(`#${name}-options tbody`).replaceChildren();
  source.textContent = "";
  try {
    const table = await tableFor(id);
    const answer = await table.lookup(game, query);
    advice.classList.remove("error");
    show(answer);
    source.textContent = `Answered from ${table.source}.`;
  } catch (e) {
    advice.classList.add("error");
    advice.textContent = e.message;
  }
}

$("#threes-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const advice = $("#threes-advice");
  const body = $("#threes-options tbody");
  advise("threes", "threes", "threes", filled(event.target), (a) => {
    advice.textContent = `Best: keep ${a.best.keep}: chance of success ${percent(a.p, 4)}`;
    body.append(...a.options.map((o) => {
      const tr = document.createElement("tr");
      if (o.keep === a.best.keep) tr.classList.add("best");
      tr.append(cell(o.keep), cell(percent(o.p, 4), "num"));
      return tr;
    }));
  });
});

$("#tenk-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const f = filled(event.target);
  const duel = "me" in f && "opp" in f;
  const advice = $("#tenk-advice");
  const body = $("#tenk-options tbody");
  const show = (v) => (duel ? percent(v, 4) : v.toFixed(2));
  $("#tenk-value-head").textContent = duel ? "chance to win" : "expected points";
  const [id, game, query] = duel
    ? [DUEL_TABLES[f.rules], "duel", { me: f.me, opp: f.opp, dice: f.dice, score: f.score, rules: f.rules }]
    : ["tenk", "tenk", { dice: f.dice, score: f.score }];
  advise("tenk", id, game, query, (a) => {
    const value = duel ? a.p : a.ev;
    if (a.bust) {
      advice.textContent = duel ? `Bust: nothing scores; you win ${percent(value, 4)}` : "Bust: nothing scores, the turn score is lost";
      return;
    }
    advice.textContent = `Best: keep ${a.best.keep} for ${a.best.points}, then ${a.best.then} (${show(value)})`;
    body.append(...a.options.map((o) => {
      const tr = document.createElement("tr");
      if (o.keep === a.best.keep && o.then === a.best.then) tr.classList.add("best");
      tr.append(cell(o.keep), cell(String(o.points), "num"), cell(o.then), cell(show(duel ? o.p : o.ev), "num"));
      return tr;
    }));
  });
});
