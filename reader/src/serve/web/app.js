// The dice-tables web page: a yazy game with the optimal advice beside every
// decision, and threes and 10000 advisors. Every number comes from the
// server's /v1/lookup answers (the same as `reader lookup ... --json`).
"use strict";

const $ = (sel) => document.querySelector(sel);

/** GET /v1/lookup/GAME?PARAMS: the answer, or an Error carrying the server's one-line message. */
async function lookup(game, params) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "" && v !== undefined && v !== null));
  const response = await fetch(`/v1/lookup/${game}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `HTTP ${response.status}`);
  return body;
}

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function percent(p) {
  return `${(100 * p).toFixed(4)} %`;
}

// ---------------------------------------------------------------- tabs

for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) {
      t.setAttribute("aria-pressed", String(t === tab));
      $(`#${t.dataset.tab}`).hidden = t !== tab;
    }
  });
}

// ---------------------------------------------------------------- yazy

const CATEGORIES = ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house", "straight", "yazy"];

/** mulberry32: a seeded generator when the page is opened with ?seed=N (tests), else Math.random. */
function randomSource() {
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed === null) return Math.random;
  let a = Number(seed) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = randomSource();
const die = () => 1 + Math.floor(random() * 6);

const game = {
  open: [...CATEGORIES],
  scores: {},
  dice: [],
  kept: [false, false, false, false, false],
  rerolls: 0,
  phase: "roll", // roll | decide | over
  answer: null, // the lookup of the current decision
  lost: 0,
  last: null, // the previous decision: {options, chosen, dice, rerolls, cost}
  advised: 0, // answers received, so that a script can wait for the next
};

const sortedDice = (dice) => [...dice].sort().join("");

function actionText(action, rerolls) {
  if ("category" in action) return `score ${action.category} for ${action.points}`;
  const n = action.keep.length;
  if (n === 5) return rerolls > 0 ? `keep ${action.keep} (reroll none)` : `keep ${action.keep}`;
  if (n === 0) return "reroll all five";
  return `keep ${action.keep}, reroll ${5 - n}`;
}

async function advise() {
  game.answer = null;
  render();
  try {
    game.answer = await lookup("yazy", { mask: game.open.join(","), dice: sortedDice(game.dice), rerolls: game.rerolls });
    game.advised += 1;
  } catch (e) {
    $("#advice").textContent = e.message;
    $("#advice").classList.add("error");
    return;
  }
  render();
}

function roll() {
  game.dice = Array.from({ length: 5 }, die);
  game.kept = [false, false, false, false, false];
  game.rerolls = 2;
  game.phase = "decide";
  advise();
}

/** The player's choice among the current options: its cost is charged, then it is played. */
function choose(index) {
  const options = game.answer.options;
  const cost = options[0].ev - options[index].ev;
  game.lost += cost;
  game.last = { options, chosen: index, dice: sortedDice(game.dice), rerolls: game.rerolls, cost };
  const action = options[index].action;
  if ("category" in action) {
    game.scores[action.category] = action.points;
    game.open = game.open.filter((c) => c !== action.category);
    game.phase = game.open.length ? "roll" : "over";
    game.answer = null;
    render();
    return;
  }
  if (action.keep.length === 5) {
    game.rerolls = 0; // keeping all five stops rerolling
  } else {
    const kept = action.keep.split("").map(Number);
    game.dice = [...kept, ...Array.from({ length: 5 - kept.length }, die)];
    game.rerolls -= 1;
  }
  game.kept = [false, false, false, false, false];
  advise();
}

function reroll() {
  const keep = sortedDice(game.dice.filter((_, i) => game.kept[i]));
  const index = game.answer.options.findIndex((o) => o.action.keep === keep);
  if (index >= 0) choose(index);
}

function score(category) {
  const index = game.answer.options.findIndex((o) => o.action.category === category);
  if (index >= 0) choose(index);
}

function optionRows(tbody, options, chosen, rerolls) {
  tbody.replaceChildren();
  const best = options.length ? options[0].ev : 0;
  options.forEach((o, i) => {
    const tr = document.createElement("tr");
    tr.dataset.action = JSON.stringify(o.action);
    tr.dataset.ev = String(o.ev);
    if (i === 0) tr.classList.add("best");
    if (i === chosen) tr.classList.add("chosen");
    tr.append(cell(String(i + 1)), cell(actionText(o.action, rerolls)), cell(o.ev.toFixed(4), "num"), cell((best - o.ev).toFixed(4), "num"));
    tbody.append(tr);
  });
}

function render() {
  const state = $("#yazy-state");
  state.dataset.phase = game.phase;
  state.dataset.mask = game.open.join(",");
  state.dataset.dice = sortedDice(game.dice);
  state.dataset.rerolls = String(game.rerolls);
  state.dataset.ready = String(game.phase !== "decide" || game.answer !== null);
  state.dataset.advised = String(game.advised);
  state.replaceChildren(
    ...game.dice.map((d, i) => {
      const b = document.createElement("button");
      b.className = game.kept[i] ? "die kept" : "die";
      b.textContent = String(d);
      b.dataset.index = String(i);
      b.setAttribute("aria-pressed", String(game.kept[i]));
      b.disabled = !(game.phase === "decide" && game.rerolls > 0 && game.answer);
      b.addEventListener("click", () => {
        game.kept[i] = !game.kept[i];
        render();
      });
      return b;
    }),
  );
  $("#roll").disabled = game.phase !== "roll";
  const allKept = game.kept.every(Boolean);
  $("#reroll").disabled = !(game.phase === "decide" && game.rerolls > 0 && game.answer);
  $("#reroll").textContent = allKept ? "Keep all, score" : "Reroll";
  $("#rerolls-left").textContent = game.phase === "decide" ? `${game.rerolls} reroll${game.rerolls === 1 ? "" : "s"} left` : "";

  const advice = $("#advice");
  advice.classList.remove("error");
  if (game.answer && game.answer.best) {
    advice.textContent = `Best: ${actionText(game.answer.best, game.rerolls)} (expected ${game.answer.ev.toFixed(4)} still to come)`;
    advice.dataset.best = JSON.stringify(game.answer.best);
  } else {
    advice.textContent = game.phase === "roll" ? "Roll the dice." : "";
    delete advice.dataset.best;
  }
  $("#options").hidden = !(game.answer && game.answer.options.length);
  optionRows($("#options tbody"), game.answer ? game.answer.options : [], -1, game.rerolls);

  const sheet = $("#sheet tbody");
  sheet.replaceChildren();
  for (const c of CATEGORIES) {
    const tr = document.createElement("tr");
    tr.dataset.category = c;
    const points = cell(c in game.scores ? String(game.scores[c]) : "", "num");
    if (c in game.scores) points.dataset.points = String(game.scores[c]);
    const act = document.createElement("td");
    if (game.open.includes(c) && game.phase === "decide" && game.rerolls === 0 && game.answer) {
      const b = document.createElement("button");
      b.textContent = "score";
      b.dataset.score = c;
      b.addEventListener("click", () => score(c));
      act.append(b);
    }
    tr.append(cell(c), points, act);
    sheet.append(tr);
  }
  const total = Object.values(game.scores).reduce((a, b) => a + b, 0);
  $("#total").textContent = String(total);
  $("#lost").textContent = game.lost.toFixed(2);

  const last = $("#last");
  if (game.last) {
    last.hidden = false;
    $("#last-caption").textContent = `Your last decision (dice ${game.last.dice}, ${game.last.rerolls} rerolls left): it cost ${game.last.cost.toFixed(4)}`;
    optionRows($("#last tbody"), game.last.options, game.last.chosen, game.last.rerolls);
  }
  const over = $("#game-over");
  over.hidden = game.phase !== "over";
  over.textContent = `Game over: ${total} points, ${game.lost.toFixed(2)} lost to optimal play.`;
}

$("#roll").addEventListener("click", roll);
$("#reroll").addEventListener("click", reroll);

// ---------------------------------------------------------------- threes

$("#threes-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = new FormData(event.target);
  const advice = $("#threes-advice");
  const body = $("#threes-options tbody");
  body.replaceChildren();
  try {
    const a = await lookup("threes", Object.fromEntries(f));
    advice.classList.remove("error");
    advice.textContent = `Best: keep ${a.best.keep}: chance of success ${percent(a.p)}`;
    for (const o of a.options) {
      const tr = document.createElement("tr");
      if (o.keep === a.best.keep) tr.classList.add("best");
      tr.append(cell(o.keep), cell(percent(o.p), "num"));
      body.append(tr);
    }
  } catch (e) {
    advice.classList.add("error");
    advice.textContent = e.message;
  }
});

// ---------------------------------------------------------------- 10000

$("#tenk-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const f = Object.fromEntries(new FormData(event.target));
  const duel = f.me !== "" && f.opp !== "";
  const advice = $("#tenk-advice");
  const body = $("#tenk-options tbody");
  body.replaceChildren();
  const show = (v) => (duel ? percent(v) : v.toFixed(2));
  $("#tenk-value-head").textContent = duel ? "chance to win" : "expected points";
  try {
    const a = duel
      ? await lookup("duel", { me: f.me, opp: f.opp, dice: f.dice, score: f.score, rules: f.rules })
      : await lookup("tenk", { dice: f.dice, score: f.score });
    const value = duel ? a.p : a.ev;
    advice.classList.remove("error");
    if (a.bust) {
      advice.textContent = duel ? `Bust: nothing scores; you win ${percent(value)}` : "Bust: nothing scores, the turn score is lost";
      return;
    }
    advice.textContent = `Best: keep ${a.best.keep} for ${a.best.points}, then ${a.best.then} (${show(value)})`;
    for (const o of a.options) {
      const tr = document.createElement("tr");
      if (o.keep === a.best.keep && o.then === a.best.then) tr.classList.add("best");
      tr.append(cell(o.keep), cell(String(o.points), "num"), cell(o.then), cell(show(duel ? o.p : o.ev), "num"));
      body.append(tr);
    }
  } catch (e) {
    advice.classList.add("error");
    advice.textContent = e.message;
  }
});

render();
