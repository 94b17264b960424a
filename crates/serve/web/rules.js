// Any rule set the backend holds (a table of the rules engine: the presets
// `make tables` writes, or one of `generator --rules FILE`): a whole game
// with the exact advice beside every decision, the sheet's boxes, dice and
// rerolls as the table's rules give them (where they save a turn's unused
// rerolls, each player's count saved is kept and asked). Alone it is
// played for the average or, where the backend holds the rule set's target
// table (NAME-target.dtab), for a final score of at least a goal. Two
// players share the dice (pass and play) or one plays the computer where
// the backend holds the rule set's two-player table (NAME-duel.dtab: every
// chance of winning exact) or its target table (the opponent-aware
// advisor's estimate). Under `reader serve` the tables are the server's
// (rules-http.js as rules-backend.js: v1/info, v1/lookup), and its tab is
// added at start where it holds any (offer); on a static site, those
// `make site` copied, read by the WebAssembly reader (rules-wasm.js), and
// the tab is in the page from the start (site-rules.html), this file
// fetched on its first tap: nothing of it before the first advice. A game
// played alone for the average is reviewed at its end (the backend's
// review: luck and skill, accuracy, rating, the largest mistakes each with
// its reason box by box), and so is a game pasted as text.
import { $, cell, die } from "./page.js";
import { ruleLookup, ruleReview, ruleSets } from "./rules-backend.js";
import { showCoach } from "./coach.js";

let sets = [];
/** The rule sets whose target tables the server holds, by name. */
let targets = new Set();
/** The rule sets whose two-player tables the server holds, by name. */
let duels = new Set();
let game = null;

/**
 * Shows this tab's section alone; another tab (play.js shows its own
 * sections, and marks the tabs) hides it.
 */
function show() {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== "rules";
  $("#source").hidden = true;
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-pressed", String(tab.dataset.game === "rules"));
}

/** Adds the tab where the server holds rule sets' tables (unavailable.js calls it under `reader serve`). */
export async function offer() {
  if ((await ruleSets()).length === 0) return;
  const tab = Object.assign(document.createElement("button"), { className: "tab", textContent: "Your rules" });
  tab.dataset.game = "rules";
  tab.setAttribute("aria-pressed", "false");
  tab.addEventListener("click", open);
  $("header nav").append(tab);
}

/** The rule sets' tables being asked (see load), or null. */
let loading = null;

/**
 * Shows the tab: its section made on the first call, the rule sets'
 * tables asked then (again on a later tap, after a failure).
 */
export function open() {
  if ($("#rules") === null) build();
  if (game === null && loading === null) loading = load().finally(() => { loading = null; });
  show();
}

/** The tab's section, hidden whenever another tab is chosen. */
function build() {
  for (const other of document.querySelectorAll(".tab")) {
    if (other.dataset.game !== "rules") other.addEventListener("click", () => { $("#rules").hidden = true; });
  }
  const section = document.createElement("section");
  section.id = "rules";
  section.hidden = true;
  section.innerHTML = `
    <p class="lede">A rule set solved exactly from its rules: roll, then take an option (the best first, with the points it can expect still to come; playing for a goal, its chance of reaching it; two players, its chance of winning).</p>
    <p class="controls"><label>Rule set <select id="rule-set"></select></label>
      <label id="rules-players-label">Players <select id="rules-players"><option value="1">one</option><option value="2">two, passing the dice</option><option value="computer">you against the computer</option></select></label>
      <label id="rules-goal-label">Play for <input id="rules-goal" type="number" min="1" max="1000000" step="1" placeholder="the average" inputmode="numeric"> points or more</label>
      <button id="rules-new">New game</button></p>
    <p id="rules-note" class="note" hidden></p>
    <div id="rules-dice" class="dice-row" aria-label="dice"></div>
    <p class="controls"><button id="rules-roll">Roll</button> <span id="rules-rerolls"></span></p>
    <p id="rules-advice" class="advice"></p>
    <div class="boards">
      <table id="rules-options" class="ranked"><thead><tr><th>#</th><th>option</th><th id="rules-value">points to come</th></tr></thead><tbody></tbody></table>
      <table id="rules-sheet" class="sheet"><thead><tr><th>box</th><th id="rules-first">player 1</th><th id="rules-second" class="second">player 2</th></tr></thead><tbody></tbody>
        <tfoot><tr id="rules-bonus-row"><th>upper bonus</th><td id="rules-bonus"></td><td id="rules-bonus-2" class="second"></td></tr>
          <tr><th>total</th><td id="rules-total">0</td><td id="rules-total-2" class="second">0</td></tr></tfoot></table>
    </div>
    <div id="rules-review">
      <h2>Review</h2>
      <div id="rules-review-result" hidden>
        <p id="rules-review-summary" class="advice"></p>
        <ol id="rules-review-mistakes" class="log"></ol>
      </div>
      <form id="rules-review-form">
        <label for="rules-game-text">A game of the rule set chosen above, played alone, one decision a line (<code>466 keep 66</code>, <code>566 score sixes</code>; played for a goal, a first line <code>target: 150</code>, reviewed in the chance of reaching it): written here after a game played alone, or paste one.</label>
        <textarea id="rules-game-text" rows="5"></textarea>
        <button>Review this game</button>
        <p id="rules-review-error" class="error"></p>
      </form>
    </div>`;
  $("main").append(section);
  for (const control of ["#rule-set", "#rules-players", "#rules-goal"]) $(control).addEventListener("change", newGame);
  $("#rules-new").addEventListener("click", newGame);
  $("#rules-roll").addEventListener("click", roll);
  $("#rules-review-form").addEventListener("submit", (e) => {
    e.preventDefault();
    showReview($("#rule-set").value, $("#rules-game-text").value);
  });
}

/**
 * The rule sets' tables, asked of the backend when the tab is first shown
 * (a static site then fetches them), each rule set offered; then a new
 * game. Their list is kept on the section for the browser tests.
 */
async function load() {
  $("#rules-advice").textContent = "opening the rule sets' tables ...";
  let tables;
  try {
    tables = await ruleSets();
  } catch (e) {
    $("#rules-advice").textContent = e.message;
    $("#rules-advice").classList.add("error");
    return;
  }
  $("#rules-advice").classList.remove("error");
  sets = tables.filter((t) => !t.target && !t.duel && !t.parts);
  targets = new Set(tables.filter((t) => t.target).map((t) => t.rule_set_name));
  duels = new Set(tables.filter((t) => t.duel).map((t) => t.rule_set_name));
  $("#rules").dataset.sets = JSON.stringify(tables);
  for (const s of sets) {
    const saved = s.saved_rerolls ? ", unused ones saved" : "";
    $("#rule-set").append(new Option(`${s.game} (${s.dice} dice, ${s.rerolls} rerolls${saved})`, s.game));
  }
  newGame();
}

function roll() {
  // The steps of the computer's turn, shown for the tests: each asked and taken.
  if (computerMoves()) game.computerSteps = [];
  game.dice = Array.from({ length: game.set.dice }, die);
  // A turn may use the rerolls earlier turns saved as well as its own.
  game.rerolls = game.set.rerolls + game.saved[game.turn];
  game.firstRoll = true;
  advise();
}

/** Whether the computer moves now: its sheet's turn, the game not over. */
const computerMoves = () => game.computer && game.turn === 1 && !over();

/** The computer's next step in game `at`: roll, or take the best option. */
function computerPlays(at) {
  if (at !== game || !computerMoves() || game.error !== null) return;
  if (game.dice.length === 0) roll();
  else if (game.options.length) take(0);
}

/** A new game of the chosen rule set, players and goal. */
function newGame() {
  const name = $("#rule-set").value;
  const set = sets.find((s) => s.game === name);
  // The goal needs the rule set's target table; a second player its
  // two-player table (exact) or its target table (the advisor's estimate).
  const targeted = targets.has(name);
  const exact = duels.has(name);
  $("#rules-players-label").hidden = !targeted && !exact;
  const chosen = targeted || exact ? $("#rules-players").value : "1";
  const players = chosen === "1" ? 1 : 2;
  $("#rules-goal-label").hidden = !targeted || players === 2;
  const goal = Number.parseInt($("#rules-goal").value, 10);
  // A box that wins at once when served: the game ends there (the
  // advisor's estimates count it for its points, the two-player table as
  // the win it is).
  const wins = players === 2 ? set.wins_at_once ?? [] : [];
  $("#rules-note").hidden = wins.length === 0;
  const counted = exact ? "every chance counts it so" : "the chances count it for its points";
  $("#rules-note").textContent = `A ${wins.join(" or ")} scored with the turn's first roll wins at once; ${counted}.`;
  game = {
    set,
    // The computer plays the second sheet, taking the best option each time.
    computer: chosen === "computer",
    computerSteps: [],
    exact,
    goal: targeted && players === 1 && goal > 0 ? goal : null,
    winner: null,
    sheets: Array.from({ length: players }, () => ({})),
    // Each player's rerolls saved (always 0 unless the rules save them).
    saved: Array.from({ length: players }, () => 0),
    turn: 0,
    firstRoll: false,
    dice: [],
    rerolls: 0,
    options: [],
    error: null,
    // Its decisions as the text a review reads.
    lines: [],
  };
  $("#rules-review-result").hidden = true;
  $("#rules-review-error").textContent = "";
  render();
}

const two = () => game.sheets.length === 2;
/** The upper total of a sheet (its scores by box). */
const upperTotal = (scores) => (game.set.upper_bonus?.boxes ?? []).reduce((s, b) => s + (scores[b]?.points ?? 0), 0);
const openBoxes = (scores) => game.set.boxes.filter((b) => !(b in scores));
const over = () => game.winner !== null || game.sheets.every((scores) => openBoxes(scores).length === 0);
/** The points a sheet scored so far, the upper bonus left out (it counts at the end). */
const scoredSoFar = (scores) => Object.values(scores).reduce((s, x) => s + x.scored, 0);
const bonusOf = (scores) => (game.set.upper_bonus && upperTotal(scores) >= game.set.upper_bonus.at ? game.set.upper_bonus.points : 0);
const totalOf = (scores) => scoredSoFar(scores) + bonusOf(scores);

/** A sheet's state as the lookup takes it: its open boxes, upper total and boxes holding points. */
function sheetQuery(scores, prefix = "") {
  const q = { [`${prefix}mask`]: openBoxes(scores).join(",") || "none" };
  if (game.set.upper_bonus) q[`${prefix}upper`] = Math.min(upperTotal(scores), game.set.upper_bonus.at);
  const held = (game.set.held_boxes ?? []).filter((b) => scores[b]?.points > 0);
  if (held.length) q[`${prefix}held`] = held.join(",");
  return q;
}

/** The state as the lookup takes it. */
function query() {
  const mine = game.sheets[game.turn];
  const q = { ...sheetQuery(mine), dice: game.dice.join(""), rerolls: game.rerolls };
  if (game.set.saved_rerolls) q.saved = game.saved[game.turn];
  if (two()) {
    // The opponent-aware advisor: the other sheet and both totals so far.
    const theirs = game.sheets[1 - game.turn];
    Object.assign(q, sheetQuery(theirs, "opp-"), { me: scoredSoFar(mine), opp: scoredSoFar(theirs) });
  } else if (game.goal !== null) {
    // Playing for a goal: the chance of the points still needed, the upper
    // bonus counted as still to come (0 once reached: every option is sure).
    q.need = Math.max(0, game.goal - scoredSoFar(mine));
  }
  return q;
}

async function advise() {
  game.options = [];
  game.error = null;
  render();
  const asked = query();
  const at = game;
  try {
    const answer = await ruleLookup(game.set.game, asked);
    if (at !== game) return;
    game.options = answer.options;
    game.asked = asked;
  } catch (e) {
    if (at !== game) return;
    game.error = e.message;
  }
  render();
  // What was asked, and how many answers so far: for the browser tests.
  $("#rules").dataset.query = JSON.stringify(asked);
  $("#rules").dataset.answers = String(Number($("#rules").dataset.answers ?? 0) + 1);
  if (computerMoves()) setTimeout(() => computerPlays(at), 0);
}

/** Takes option `i`: a keep rerolls the other dice, a box is scored (and the dice pass on). */
function take(i) {
  const { action } = game.options[i];
  if (computerMoves()) game.computerSteps.push({ asked: game.asked, action, first: game.firstRoll });
  // Against someone, each line begins with its player's number.
  const who = two() ? `${game.turn + 1}: ` : "";
  game.lines.push(`${who}${game.dice.join("")} ${"keep" in action ? `keep ${action.keep}` : `score ${action.category}`}`);
  if ("keep" in action) {
    const kept = [...action.keep].map(Number);
    game.dice = [...kept, ...Array.from({ length: game.set.dice - kept.length }, die)];
    game.rerolls -= 1;
    game.firstRoll = false;
    advise();
    return;
  }
  const scored = action.points + (action.bonus ?? 0) + (action.first_roll ?? 0);
  game.sheets[game.turn][action.category] = { points: action.points, scored };
  const served = game.firstRoll && action.points > 0;
  // The rerolls left unused are saved for the player's later turns.
  if (game.set.saved_rerolls) game.saved[game.turn] = game.rerolls;
  if (two() && served && (game.set.wins_at_once ?? []).includes(action.category)) {
    game.winner = { player: game.turn, box: action.category };
  } else if (two() && openBoxes(game.sheets[1 - game.turn]).length > 0) {
    game.turn = 1 - game.turn;
  }
  game.dice = [];
  game.options = [];
  render();
  if (computerMoves()) setTimeout(() => computerPlays(game), 0);
  // A game over: its text (for a goal, with a line target: GOAL; against
  // someone, players: 2) and its review. Against someone the review reads
  // the two-player table: the advisor's estimates are not reviewed.
  if (over() && (!two() || game.exact)) {
    const header = two() ? ["players: 2"] : game.goal === null ? [] : [`target: ${game.goal}`];
    $("#rules-game-text").value = [`game: ${game.set.game}`, ...header, ...game.lines].join("\n");
    showReview(game.set.game, $("#rules-game-text").value);
  }
}

/**
 * The review of a game of rule set `name` from its `text` (the backend's,
 * as `reader review NAME FILE --json` gives it): the score, luck and
 * skill, accuracy and rating, then the largest mistakes, each with why the
 * best option is better where the backend holds the rule set's parts
 * table. A text the review refuses is said in one line.
 */
async function showReview(name, text) {
  const at = game;
  $("#rules-review-error").textContent = "";
  let r;
  try {
    r = await ruleReview(name, text);
  } catch (e) {
    if (at !== game) return;
    $("#rules-review-result").hidden = true;
    $("#rules-review-error").textContent = e.message;
    return;
  }
  if (at !== game) return;
  const set = sets.find((s) => s.game === name) ?? game.set;
  const shown = { summary: $("#rules-review-summary"), mistakes: $("#rules-review-mistakes"), holder: $("#rules-review") };
  showCoach(shown, r, (a) => optionText(a, set));
  $("#rules-review-result").hidden = false;
}

const optionText = (a, set = game.set) =>
  "keep" in a
    ? a.keep === "" ? `reroll all ${set.dice}` : `keep ${a.keep}, reroll ${set.dice - a.keep.length}`
    : `score ${a.category} for ${a.points}${a.bonus ? ` + ${a.bonus} bonus` : ""}${a.first_roll ? ` + ${a.first_roll} first roll` : ""}`;

/** Player `p` (0 or 1) in words: against the computer, you and it. */
const player = (p) => (game.computer ? ["you", "the computer"][p] : `player ${p + 1}`);
/** Player `p` winning, in words. */
const wins = (p) => (game.computer ? ["you win", "the computer wins"][p] : `player ${p + 1} wins`);

/** What the finished game comes to, in words. */
function result() {
  const totals = game.sheets.map(totalOf);
  if (game.winner !== null) {
    return `game over: ${wins(game.winner.player)} with a served ${game.winner.box} (player 1 ${totals[0]}, player 2 ${totals[1]})`;
  }
  if (two()) {
    const [a, b] = totals;
    return `game over: player 1 ${a}, player 2 ${b}: ${a === b ? "a tie" : wins(a > b ? 0 : 1)}`;
  }
  const goal = game.goal === null ? "" : ` (goal ${game.goal}: ${totals[0] >= game.goal ? "reached" : "short"})`;
  return `game over: ${totals[0]} points${goal}`;
}

function render() {
  const { set } = game;
  $("#rules-dice").replaceChildren(...game.dice.map((d) => Object.assign(document.createElement("span"), { className: "die", textContent: String(d) })));
  $("#rules-roll").disabled = over() || game.dice.length > 0 || computerMoves();
  const rerolls = (n, what) => `${n} reroll${n === 1 ? "" : "s"} ${what}`;
  $("#rules-rerolls").textContent = game.dice.length
    ? rerolls(game.rerolls, "left")
    : set.saved_rerolls && !over() ? rerolls(game.saved[game.turn], "saved") : "";
  $("#rules-options tbody").replaceChildren(...game.options.map((o, i) => {
    const row = document.createElement("tr");
    const value = o.p ?? o.ev;
    Object.assign(row.dataset, { action: JSON.stringify(o.action), value: String(value) });
    const button = Object.assign(document.createElement("button"), { textContent: optionText(o.action) });
    button.disabled = computerMoves();
    button.addEventListener("click", () => take(i));
    const label = document.createElement("td");
    label.append(button);
    row.append(cell(String(i + 1)), label, cell(o.p === undefined ? o.ev.toFixed(2) : `${(100 * o.p).toFixed(4)} %`));
    return row;
  }));
  $("#rules-sheet").classList.toggle("solo", !two());
  $("#rules-first").textContent = game.computer ? "player 1 (you)" : "player 1";
  $("#rules-second").textContent = game.computer ? "player 2 (the computer)" : "player 2";
  $("#rules-sheet tbody").replaceChildren(...set.boxes.map((b) => {
    const row = document.createElement("tr");
    const [first, second] = [game.sheets[0], game.sheets[1] ?? {}];
    row.append(cell(b), cell(b in first ? String(first[b].scored) : ""), cell(b in second ? String(second[b].scored) : "", "second"));
    return row;
  }));
  $("#rules-bonus-row").hidden = !set.upper_bonus;
  game.sheets.forEach((scores, i) => {
    const suffix = i === 0 ? "" : "-2";
    $(`#rules-bonus${suffix}`).textContent = set.upper_bonus ? `${bonusOf(scores)} (${upperTotal(scores)} of ${set.upper_bonus.at})` : "";
    $(`#rules-total${suffix}`).textContent = String(totalOf(scores));
  });
  $("#rules-value").textContent = two() ? `chance of winning (${game.exact ? "exact" : "estimate"})` : game.goal === null ? "points to come" : `chance of ${game.goal} or more`;
  const mover = two() ? `${player(game.turn)}: ` : "";
  $("#rules-advice").textContent =
    game.error ?? (over() ? result() : game.options.length ? `${mover}best: ${optionText(game.options[0].action)}` : two() ? `${player(game.turn)} to roll` : "");
  $("#rules-advice").classList.toggle("error", game.error !== null);
  $("#rules").dataset.computerTurn = JSON.stringify(game.computerSteps);
}
