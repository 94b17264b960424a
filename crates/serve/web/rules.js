// Any rule set the server holds (a table of the rules engine: the presets
// `make tables` writes, or one of `generator --rules FILE`): a whole game
// alone with the exact advice beside every decision, the sheet's boxes,
// dice and rerolls as the table's rules give them (v1/info); played for
// the average, or, where the server holds the rule set's target table
// (NAME-target.dtab), for a final score of at least a goal. Loaded only
// under `reader serve`, whose tables the page asks over HTTP; its tab and
// section are made here, so the static site carries none of it.
import { $, cell, die } from "./page.js";

let sets = [];
/** The rule sets whose target tables the server holds, by name. */
let targets = new Set();
let game = null;

const getJson = async (path) => {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
};

/**
 * Shows this tab's section alone; another tab (play.js shows its own
 * sections, and marks the tabs) hides it.
 */
function show() {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== "rules";
  $("#source").hidden = true;
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-pressed", String(tab.dataset.game === "rules"));
}

/** Adds the tab and its section when the server holds rule sets' tables. */
export async function offer() {
  const tables = (await getJson("v1/info")).tables.filter((t) => t.rule_set && !t.error);
  sets = tables.filter((t) => !t.target);
  targets = new Set(tables.filter((t) => t.target).map((t) => t.rule_set_name));
  if (sets.length === 0) return;
  const tab = Object.assign(document.createElement("button"), { className: "tab", textContent: "Your rules" });
  tab.dataset.game = "rules";
  tab.setAttribute("aria-pressed", "false");
  tab.addEventListener("click", () => {
    show();
    if (game === null) newGame($("#rule-set").value);
  });
  for (const other of document.querySelectorAll(".tab")) other.addEventListener("click", () => { $("#rules").hidden = true; });
  $("header nav").append(tab);
  const section = document.createElement("section");
  section.id = "rules";
  section.hidden = true;
  section.innerHTML = `
    <p class="lede">A rule set this server holds, solved exactly from its rules: roll, then take an option (the best first, with the points it can expect still to come, or, playing for a goal, its chance of reaching it).</p>
    <p class="controls"><label>Rule set <select id="rule-set"></select></label>
      <label id="rules-goal-label">Play for <input id="rules-goal" type="number" min="1" max="1000000" step="1" placeholder="the average" inputmode="numeric"> points or more</label>
      <button id="rules-new">New game</button></p>
    <div id="rules-dice" class="dice-row" aria-label="dice"></div>
    <p class="controls"><button id="rules-roll">Roll</button> <span id="rules-rerolls"></span></p>
    <p id="rules-advice" class="advice"></p>
    <div class="boards">
      <table id="rules-options" class="ranked"><thead><tr><th>#</th><th>option</th><th id="rules-value">points to come</th></tr></thead><tbody></tbody></table>
      <table id="rules-sheet" class="sheet"><thead><tr><th>box</th><th>points</th></tr></thead><tbody></tbody>
        <tfoot><tr id="rules-bonus-row"><th>upper bonus</th><td id="rules-bonus"></td></tr><tr><th>total</th><td id="rules-total">0</td></tr></tfoot></table>
    </div>`;
  $("main").append(section);
  for (const s of sets) $("#rule-set").append(new Option(`${s.game} (${s.dice} dice, ${s.rerolls} rerolls)`, s.game));
  $("#rule-set").addEventListener("change", () => newGame($("#rule-set").value));
  $("#rules-goal").addEventListener("change", () => newGame($("#rule-set").value));
  $("#rules-new").addEventListener("click", () => newGame($("#rule-set").value));
  $("#rules-roll").addEventListener("click", () => {
    game.dice = Array.from({ length: game.set.dice }, die);
    game.rerolls = game.set.rerolls;
    advise();
  });
}

function newGame(name) {
  const set = sets.find((s) => s.game === name);
  $("#rules-goal-label").hidden = !targets.has(name);
  const goal = Number.parseInt($("#rules-goal").value, 10);
  game = { set, goal: targets.has(name) && goal > 0 ? goal : null, scores: {}, bonus: 0, dice: [], rerolls: 0, options: [], error: null };
  render();
}

/** The points scored so far, the upper bonus left out (it counts at the end). */
const scoredSoFar = () => Object.values(game.scores).reduce((s, x) => s + x.scored, 0);

/** Whether the upper bonus's boxes reach its total. */
const upperTotal = () => (game.set.upper_bonus?.boxes ?? []).reduce((s, b) => s + (game.scores[b]?.points ?? 0), 0);
const open = () => game.set.boxes.filter((b) => !(b in game.scores));
const over = () => open().length === 0;

/** The state as the lookup takes it. */
function query() {
  const q = { mask: open().join(",") || "none", dice: game.dice.join(""), rerolls: game.rerolls };
  if (game.set.upper_bonus) q.upper = Math.min(upperTotal(), game.set.upper_bonus.at);
  const held = (game.set.held_boxes ?? []).filter((b) => game.scores[b]?.points > 0);
  if (held.length) q.held = held.join(",");
  // Playing for a goal: the chance of the points still needed, the upper
  // bonus counted as still to come (0 once reached: every option is sure).
  if (game.goal !== null) q.need = Math.max(0, game.goal - scoredSoFar());
  return q;
}

async function advise() {
  game.options = [];
  game.error = null;
  render();
  const asked = query();
  try {
    const answer = await getJson(`v1/lookup/${game.set.game}?${new URLSearchParams(asked)}`);
    game.options = answer.options;
  } catch (e) {
    game.error = e.message;
  }
  render();
  // What was asked, and how many answers so far: for the browser tests.
  $("#rules").dataset.query = JSON.stringify(asked);
  $("#rules").dataset.answers = String(Number($("#rules").dataset.answers ?? 0) + 1);
}

/** Takes option `i`: a keep rerolls the other dice, a box is scored. */
function take(i) {
  const { action } = game.options[i];
  if ("keep" in action) {
    const kept = [...action.keep].map(Number);
    game.dice = [...kept, ...Array.from({ length: game.set.dice - kept.length }, die)];
    game.rerolls -= 1;
    advise();
    return;
  }
  const scored = action.points + (action.bonus ?? 0) + (action.first_roll ?? 0);
  game.scores[action.category] = { points: action.points, scored };
  game.dice = [];
  game.options = [];
  render();
}

const optionText = (a) =>
  "keep" in a
    ? a.keep === "" ? `reroll all ${game.set.dice}` : `keep ${a.keep}, reroll ${game.set.dice - a.keep.length}`
    : `score ${a.category} for ${a.points}${a.bonus ? ` + ${a.bonus} bonus` : ""}${a.first_roll ? ` + ${a.first_roll} first roll` : ""}`;

function render() {
  const { set } = game;
  $("#rules-dice").replaceChildren(...game.dice.map((d) => Object.assign(document.createElement("span"), { className: "die", textContent: String(d) })));
  $("#rules-roll").disabled = over() || game.dice.length > 0;
  $("#rules-rerolls").textContent = game.dice.length ? `${game.rerolls} reroll${game.rerolls === 1 ? "" : "s"} left` : "";
  $("#rules-options tbody").replaceChildren(...game.options.map((o, i) => {
    const row = document.createElement("tr");
    const value = o.p ?? o.ev;
    Object.assign(row.dataset, { action: JSON.stringify(o.action), value: String(value) });
    const button = Object.assign(document.createElement("button"), { textContent: optionText(o.action) });
    button.addEventListener("click", () => take(i));
    const label = document.createElement("td");
    label.append(button);
    row.append(cell(String(i + 1)), label, cell(o.p === undefined ? o.ev.toFixed(2) : `${(100 * o.p).toFixed(4)} %`));
    return row;
  }));
  $("#rules-sheet tbody").replaceChildren(...set.boxes.map((b) => {
    const row = document.createElement("tr");
    row.append(cell(b), cell(b in game.scores ? String(game.scores[b].scored) : ""));
    return row;
  }));
  const bonus = set.upper_bonus && upperTotal() >= set.upper_bonus.at ? set.upper_bonus.points : 0;
  $("#rules-bonus-row").hidden = !set.upper_bonus;
  $("#rules-bonus").textContent = set.upper_bonus ? `${bonus} (${upperTotal()} of ${set.upper_bonus.at})` : "";
  const total = scoredSoFar() + bonus;
  $("#rules-total").textContent = String(total);
  $("#rules-value").textContent = game.goal === null ? "points to come" : `chance of ${game.goal} or more`;
  const goal = game.goal === null ? "" : ` (goal ${game.goal}: ${total >= game.goal ? "reached" : "short"})`;
  $("#rules-advice").textContent = game.error ?? (over() ? `game over: ${total} points${goal}` : game.options.length ? `best: ${optionText(game.options[0].action)}` : "");
  $("#rules-advice").classList.toggle("error", game.error !== null);
}
