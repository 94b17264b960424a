// Yahtzee, Yatzy, yazy and Maxi Yatzy with the exact optimal advice beside
// every decision, and the page's tabs. Every answer is what `reader lookup GAME
// ... --json` prints for the same state, from backend.js (in the page on a
// static site, over HTTP under `reader serve`).
import { $, cell, die, sinceTap, tableFor } from "./page.js";

// Per game: its boxes in mask-bit order, its dice, and the upper bonus
// (points, and the upper total that earns it) under each rule set.
const GAMES = {
  yahtzee: {
    title: "Yahtzee",
    dice: 5,
    bonusAt: 63,
    categories: ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
      "small-straight", "large-straight", "yahtzee", "chance"],
    upperBonus: 35,
  },
  yatzy: {
    title: "Yatzy",
    dice: 5,
    bonusAt: 63,
    categories: ["ones", "twos", "threes", "fours", "fives", "sixes", "pair", "two-pairs", "three-kind", "four-kind",
      "small-straight", "large-straight", "full-house", "chance", "yatzy"],
    upperBonus: 50,
  },
  yazy: {
    title: "yazy",
    dice: 5,
    bonusAt: 63,
    categories: ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
      "straight", "yazy"],
    upperBonus: 0, // no bonuses: the points already scored do not matter
  },
  "maxi-yatzy": {
    title: "Maxi Yatzy",
    dice: 6,
    categories: ["ones", "twos", "threes", "fours", "fives", "sixes", "one-pair", "two-pairs", "three-pairs",
      "three-kind", "four-kind", "five-kind", "small-straight", "large-straight", "full-straight", "full-house",
      "villa", "tower", "chance", "maxi-yatzy"],
    // finnish: bonus 50 at 75; swedish: 100 at 84, and the rerolls a turn
    // leaves unused are saved for later turns.
    rules: { finnish: { bonusAt: 75, upperBonus: 50 }, swedish: { bonusAt: 84, upperBonus: 100, saved: true } },
  },
};
const UPPER = 6;

// The boxes as players say them (the ids are the command line's).
const NAMES = {
  "one-pair": "One Pair", pair: "One Pair", "two-pairs": "Two Pairs", "three-pairs": "Three Pairs",
  "three-kind": "Three of a Kind", "four-kind": "Four of a Kind", "five-kind": "Five of a Kind",
  "full-house": "Full House", "small-straight": "Small Straight", "large-straight": "Large Straight",
  "full-straight": "Full Straight", "maxi-yatzy": "Maxi Yatzy",
};
const boxName = (c) => NAMES[c] ?? c[0].toUpperCase() + c.slice(1);

// The boxes that score one value or nothing, per game: what a sheet filled
// in by hand may hold there.
const FIXED = {
  yahtzee: { "full-house": 25, "small-straight": 30, "large-straight": 40, yahtzee: 50 },
  yatzy: { "small-straight": 15, "large-straight": 20, yatzy: 50 },
  yazy: { "full-house": 25, straight: 40, yazy: 50 },
  "maxi-yatzy": { "small-straight": 15, "large-straight": 20, "full-straight": 21, "maxi-yatzy": 100 },
};

/**
 * The points a box filled in by hand holds, from what was typed: a number,
 * `undefined` for an open box (nothing typed), or an Error naming the box
 * and what it takes.
 */
function typedPoints(g, box, text) {
  const t = text.trim();
  if (t === "") return undefined;
  const { categories, dice } = rulesOf(g);
  const i = categories.indexOf(box);
  const fixed = FIXED[g.name][box];
  const takes = i < UPPER ? `a multiple of ${i + 1} from 0 to ${dice * (i + 1)}`
    : fixed !== undefined ? `0 or ${fixed}` : `a whole number from 0 to ${dice * 6}`;
  const n = /^\d+$/.test(t) ? Number(t) : NaN;
  const fits = i < UPPER ? n % (i + 1) === 0 && n <= dice * (i + 1) : fixed !== undefined ? n === 0 || n === fixed : n <= dice * 6;
  return Number.isInteger(n) && fits ? n : new Error(`${box} "${t}": it takes ${takes}, or nothing while open`);
}

const sorted = (dice) => [...dice].sort().join("");

/** Whether `dice` (digits or numbers) hold every one of `kept`, as many times. */
function holds(dice, kept) {
  const left = [...dice].map(Number);
  for (const k of [...kept].map(Number)) {
    const at = left.indexOf(k);
    if (at < 0) return false;
    left.splice(at, 1);
  }
  return true;
}

/** The decision of taking option `index` of `options` in `g`'s state, with its cost against the best. */
function decision(g, options, index) {
  return { dice: sorted(g.dice), rerolls: g.rerolls, options, chosen: index, cost: options[0].ev - options[index].ev };
}

/** Scores a box in `g`: the box's points, and a Yahtzee bonus apart. */
function scoreBox(g, action) {
  g.scores[action.category] = action.points;
  g.bonuses += action.bonus ?? 0;
}

let game = null;
let history = []; // snapshots for undo
let advised = 0; // answers shown, so that a script can wait for the next

/** The game `g`'s rules: its boxes, dice and bonus (Maxi Yatzy's under its rule set). */
const rulesOf = (g) => ({ ...GAMES[g.name], ...(GAMES[g.name].rules?.[g.rules] ?? {}) });
/** Rerolls a turn of `g` starts with: two, and under saved rolls every one saved. */
const turnRerolls = (g) => 2 + g.saved;

function newGame(name, joker, rules) {
  game = {
    name, joker: name === "yahtzee" ? joker : null,
    rules: name === "maxi-yatzy" ? rules : null, // finnish | swedish
    scores: {}, // category -> box points (a Yahtzee bonus apart)
    bonuses: 0, // Yahtzee bonuses
    saved: 0, // rerolls saved from earlier turns (swedish Maxi Yatzy)
    dice: [], kept: [], rerolls: 0,
    phase: "roll", // roll | decide | over
    decisions: [], // {dice, rerolls, options, chosen, cost}
    answer: null, error: null,
    realDice: $("#real-dice").checked, // the page never rolls: it asks for the dice shown
    awaiting: null, // with real dice: the dice kept, until the dice thrown are typed
    editing: false, // the sheet's boxes being filled in by hand
  };
  history = [];
  review = null;
  $("#game-text").value = "";
  render();
}

const info = () => rulesOf(game);
const openCategories = () => info().categories.filter((c) => !(c in game.scores));
// Of the game on the page, or of `g`, a game being replayed for a review.
const mask = (g = game) => GAMES[g.name].categories.reduce((m, c, i) => (c in g.scores ? m : m | (1 << i)), 0);
const upper = (g = game) => GAMES[g.name].categories.slice(0, UPPER).reduce((s, c) => s + (g.scores[c] ?? 0), 0);
const upperBonus = (g = game) => (upper(g) >= rulesOf(g).bonusAt ? rulesOf(g).upperBonus : 0);
const total = (g = game) => Object.values(g.scores).reduce((s, p) => s + p, 0) + upperBonus(g) + g.bonuses;
// The points already scored that the tables' values come on top of: the
// boxes and the Yahtzee bonuses; the upper bonus is among the points still
// to come until the game ends (the tables count it so), even once earned.
const scored = (g = game) => total(g) - upperBonus(g);

function query(g = game) {
  const q = { mask: mask(g), dice: sorted(g.dice), rerolls: g.rerolls };
  if (rulesOf(g).upperBonus) q.upper = upper(g);
  if (g.name === "yahtzee" && g.scores.yahtzee === 50) q["yahtzee-bonus"] = true;
  if (rulesOf(g).saved) Object.assign(q, { saved: g.saved, rules: g.rules });
  return q;
}

async function advise() {
  game.answer = null;
  game.error = null;
  render();
  const asked = game;
  try {
    const table = await tableFor(game.name, variant());
    const answer = await table.lookup(game.name, query());
    if (asked !== game) return;
    game.answer = answer;
    game.source = table.source;
    advised += 1;
  } catch (e) {
    game.error = e.message;
  }
  render();
  // From the player's tap, and from navigation, to the advice in the page (read by the browser test).
  Object.assign($("#state").dataset, { ms: sinceTap(), at: performance.now().toFixed(0) });
}

function snapshot() {
  history.push(JSON.stringify({ ...game, answer: null }));
}

function undo() {
  if (!history.length) return;
  game = JSON.parse(history.pop());
  if (game.phase === "decide") advise();
  else render();
}

/** Which table of the game answers: yahtzee's joker reading, Maxi Yatzy's rules (finnish is the plain table). */
const variant = (g = game) => (g.joker === "free" ? "free" : g.rules === "swedish" ? "swedish" : null);

function startRoll(dice) {
  snapshot();
  game.dice = dice;
  game.kept = dice.map(() => false);
  game.rerolls = turnRerolls(game);
  game.phase = "decide";
  advise();
}

function actionText(action) {
  if ("category" in action) {
    const bonus = action.bonus ? ` + ${action.bonus} Yahtzee bonus` : "";
    return `score ${boxName(action.category)} for ${action.points}${bonus}`;
  }
  const n = action.keep.length;
  const dice = game ? info().dice : 5;
  if (n === 0) return `reroll all ${dice === 6 ? "six" : "five"}`;
  return `keep ${action.keep}, reroll ${dice - n}`;
}

/** The player's choice among the current options; `rolled`: the dice a reroll gave (else rolled here). */
function choose(index, rolled) {
  const options = game.answer.options;
  snapshot();
  game.decisions.push(decision(game, options, index));
  const action = options[index].action;
  game.kept = game.dice.map(() => false);
  if ("category" in action) {
    scoreBox(game, action);
    // Under saved rolls the rerolls left go on to later turns.
    if (info().saved) game.saved = game.rerolls;
    game.answer = null;
    game.phase = openCategories().length ? "roll" : "over";
    render();
    return;
  }
  const kept = action.keep.split("").map(Number);
  if (rolled === undefined && game.realDice) {
    // The player throws at the table: the kept dice stay shown until the throw is typed.
    game.awaiting = action.keep;
    game.dice = kept;
    game.kept = kept.map(() => true);
    game.answer = null;
    return render();
  }
  thrown(rolled ?? [...kept, ...Array.from({ length: info().dice - kept.length }, die)]);
}

/** The dice a reroll gave (typed after keeping `game.awaiting` with real dice), advised. */
function thrown(dice) {
  game.awaiting = null;
  game.dice = dice;
  game.kept = dice.map(() => false);
  game.rerolls -= 1;
  advise();
}

function findOption(test) {
  return game.answer ? game.answer.options.findIndex((o) => test(o.action)) : -1;
}

function reroll(rolled) {
  const keep = sorted(game.dice.filter((_, i) => game.kept[i]));
  const index = findOption((a) => a.keep === keep);
  if (index >= 0) choose(index, rolled);
}

function enterDice(text) {
  const dice = text.replace(/[\s,]/g, "").split("").map(Number);
  const n = info().dice;
  if (dice.length !== n || dice.some((d) => !(d >= 1 && d <= 6))) {
    game.error = n === 6 ? `"${text}": give six digits 1-6, like 333566` : `"${text}": give five digits 1-6, like 33356`;
    return render();
  }
  if (game.phase === "roll") return startRoll(dice);
  // The dice a reroll gave at the table (after a keep with real dice, or
  // with the dice to keep tapped): they hold the dice kept.
  if (game.phase === "decide" && (game.awaiting !== null || (game.rerolls > 0 && game.answer))) {
    const kept = game.dice.filter((_, i) => game.kept[i]);
    if (!holds(dice, kept)) {
      game.error = `"${text}" does not hold the kept ${sorted(kept)}`;
      return render();
    }
    return game.awaiting !== null ? thrown(dice) : reroll(dice);
  }
}

function render() {
  $("#play").hidden = game === null;
  if (game === null) return;
  $("#joker-choice").hidden = game.name !== "yahtzee";
  $("#maxi-rules-choice").hidden = game.name !== "maxi-yatzy";
  const state = $("#state");
  state.dataset.game = game.name;
  state.dataset.phase = game.phase;
  state.dataset.query = game.phase === "decide" ? JSON.stringify(query()) : "";
  state.dataset.advised = String(advised);
  state.replaceChildren(...game.dice.map((d, i) => {
    const b = document.createElement("button");
    b.className = game.kept[i] ? "die kept" : "die";
    b.textContent = String(d);
    b.setAttribute("aria-pressed", String(game.kept[i]));
    b.disabled = !(game.phase === "decide" && game.rerolls > 0 && game.answer) || game.awaiting !== null;
    b.addEventListener("click", () => { game.kept[i] = !game.kept[i]; render(); });
    return b;
  }));
  state.dataset.awaiting = game.awaiting ?? "";
  $("#roll").disabled = game.phase !== "roll" || game.realDice || game.editing;
  $("#roll").hidden = game.realDice;
  $("#real-dice").checked = game.realDice;
  const edit = $("#edit-sheet");
  edit.disabled = !(game.phase === "roll" || game.editing);
  edit.textContent = game.editing ? "Done" : "Fill in the sheet";
  // Keeping every die is scoring now: the sheet's buttons do it.
  $("#reroll").disabled = !(game.phase === "decide" && game.rerolls > 0 && game.answer && !game.kept.every(Boolean));
  $("#undo").disabled = history.length === 0;
  const savedNote = info().saved ? ` (${game.saved} saved)` : "";
  $("#rerolls-left").textContent = game.phase === "decide" ? `${game.rerolls} reroll${game.rerolls === 1 ? "" : "s"} left` : game.phase === "roll" && info().saved ? `${turnRerolls(game)} rerolls this turn${savedNote}` : "";

  const advice = $("#advice");
  advice.classList.toggle("error", game.error !== null);
  if (game.error) advice.textContent = game.error;
  else if (game.answer) {
    const ev = game.answer.ev;
    advice.textContent = `Best: ${actionText(game.answer.best)} (expected ${ev.toFixed(4)} points still to come: a final score of ${(scored() + ev).toFixed(2)})`;
  }
  else if (game.awaiting !== null) {
    const n = info().dice;
    advice.textContent = `Keep ${game.awaiting || "nothing"}, throw the other ${n - game.awaiting.length}, and type all ${n === 6 ? "six" : "five"} dice showing.`;
  } else if (game.editing) advice.textContent = "Type each box's points as the sheet stands (nothing in an open box), then Done.";
  else if (game.phase === "roll" && game.realDice) advice.textContent = "Roll at the table and type the dice.";
  else advice.textContent = { roll: "Roll the dice, or type the dice you rolled.", over: "Game over.", decide: "" }[game.phase];
  advice.dataset.best = game.answer ? JSON.stringify(game.answer.best) : "";

  const options = game.answer ? game.answer.options : [];
  $("#options").hidden = options.length === 0;
  const tbody = $("#options tbody");
  tbody.replaceChildren(...options.map((o, i) => {
    const tr = document.createElement("tr");
    tr.dataset.action = JSON.stringify(o.action);
    tr.dataset.ev = String(o.ev);
    if (i === 0) tr.classList.add("best");
    tr.dataset.final = String(scored() + o.ev);
    tr.append(cell(String(i + 1)), cell(actionText(o.action)), cell(o.ev.toFixed(2), "num"), cell((options[0].ev - o.ev).toFixed(3), "num"), cell((scored() + o.ev).toFixed(2), "num"));
    tr.addEventListener("click", () => choose(i));
    return tr;
  }));

  const sheet = $("#sheet tbody");
  // What is typed in the boxes stays while the sheet is being filled in (a refusal too).
  const typed = Object.fromEntries([...sheet.querySelectorAll("input[data-box]")].map((i) => [i.dataset.box, i.value]));
  sheet.replaceChildren(...info().categories.map((c) => {
    const tr = document.createElement("tr");
    tr.dataset.category = c;
    const points = cell(c in game.scores && !game.editing ? String(game.scores[c]) : "", "num");
    if (c in game.scores) points.dataset.points = String(game.scores[c]);
    if (game.editing) {
      const input = document.createElement("input");
      Object.assign(input, { value: typed[c] ?? (c in game.scores ? String(game.scores[c]) : ""), inputMode: "numeric", size: 3 });
      input.dataset.box = c;
      input.setAttribute("aria-label", `${c} points`);
      points.append(input);
    }
    const act = document.createElement("td");
    const index = findOption((a) => a.category === c);
    // What the dice shown would score there now.
    const now = cell(index >= 0 && !(c in game.scores) ? String(game.answer.options[index].action.points) : "", "num now");
    if (now.textContent) now.dataset.now = now.textContent;
    if (!(c in game.scores) && game.phase === "decide" && index >= 0) {
      const b = document.createElement("button");
      b.textContent = "score";
      b.dataset.score = c;
      b.addEventListener("click", () => choose(index));
      act.append(b);
    }
    tr.append(cell(boxName(c)), points, now, act);
    return tr;
  }));
  const up = upper();
  $("#upper-bonus-row").hidden = !info().upperBonus;
  // Par: the bonus's pace, bonusAt / 21 of each face (three of each at 63).
  const par = info().categories.slice(0, UPPER).reduce((s, c, i) => s + (c in game.scores ? ((i + 1) * info().bonusAt) / 21 : 0), 0);
  const ahead = Math.round(up - par);
  $("#upper-bonus").textContent = upperBonus() ? `${upperBonus()} (upper ${up})`
    : `${up} of ${info().bonusAt}; par ${Math.round(par)} (${ahead >= 0 ? "+" : ""}${ahead})`;
  $("#yahtzee-bonus-row").hidden = game.name !== "yahtzee";
  $("#yahtzee-bonuses").textContent = String(game.bonuses);
  $("#total").textContent = String(total());
  $("#total").dataset.total = String(total());
  if (game.source) {
    const joker = game.joker ? `, ${game.joker} joker reading` : game.rules ? `, ${game.rules} rules` : "";
    $("#source").textContent = `${info().title}${joker}: answered from ${game.source}.`;
    $("#source").dataset.table = game.source;
  }
  $("#saved-row").hidden = !(game.editing && info().saved);
  $("#saved-input").value = String(game.saved);
  $("#bonuses-row").hidden = !(game.editing && game.name === "yahtzee");
  $("#bonuses-input").value = String(game.bonuses);
  renderReview();
  save();
}

/** Where the game of each sheet tab is kept between visits and reloads. */
const STORED = "dice-tables:sheet:";

/** Keeps the game in progress (and its undo steps) in the browser. */
function save() {
  try {
    localStorage.setItem(STORED + game.name, JSON.stringify({ game: { ...game, answer: null, error: null }, history }));
    localStorage.setItem("dice-tables:tab", game.name);
  } catch {
    // Storage off or full: the game goes on, unsaved.
  }
}

/**
 * Takes up the game of tab `name` kept in the browser, if one is under way
 * (under `joker` or `rules` where they are given); true if it did.
 */
function resume(name, { joker, rules } = {}) {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(STORED + name));
  } catch {
    return false;
  }
  const g = kept?.game;
  if (!g || g.name !== name || g.phase === "over" || (joker && g.joker !== joker) || (rules && g.rules !== rules)) return false;
  takeUp(g, Array.isArray(kept.history) ? kept.history : []);
  return true;
}

/** Plays on from game state `g` (kept in the browser, or a pasted game's end) with undo steps `steps`. */
function takeUp(g, steps) {
  game = { ...g, answer: null, error: null, awaiting: g.awaiting ?? null, editing: false };
  history = steps;
  review = null;
  $("#joker").value = game.joker ?? "forced";
  $("#maxi-rules").value = game.rules ?? "finnish";
  if (game.phase === "decide" && game.awaiting === null) advise();
  else render();
}

/** The sheet as filled in by hand, taken: true, or false with the first box that cannot hold what was typed. */
function takeSheet() {
  const scores = {};
  for (const input of document.querySelectorAll("#sheet input[data-box]")) {
    const p = typedPoints(game, input.dataset.box, input.value);
    if (p instanceof Error) {
      game.error = p.message;
      return false;
    }
    if (p !== undefined) scores[input.dataset.box] = p;
  }
  if (Object.keys(scores).length === info().categories.length) {
    game.error = "every box is filled: leave at least one open to play on";
    return false;
  }
  const saved = $("#saved-input").value.trim();
  if (info().saved && !/^\d+$/.test(saved)) {
    game.error = `saved rerolls "${saved}": a whole number from 0 (two a turn played at most)`;
    return false;
  }
  const bonuses = $("#bonuses-input").value.trim() || "0";
  if (game.name === "yahtzee" && !(/^\d+$/.test(bonuses) && Number(bonuses) % 100 === 0 && (bonuses === "0" || scores.yahtzee === 50))) {
    game.error = `Yahtzee bonuses "${bonuses}": a multiple of 100, and only with 50 in the yahtzee box`;
    return false;
  }
  snapshot();
  game.scores = scores;
  game.bonuses = game.name === "yahtzee" ? Number(bonuses) : 0;
  if (info().saved) game.saved = Math.min(Number(saved), 2 * Object.keys(scores).length);
  return true;
}

/** What a review shows: the game just played once it is over, or one pasted. */
let review = null;

/** A decision as a line of a game's text: the dice, then the choice. */
function decisionLine(d) {
  const a = d.options[d.chosen].action;
  return `${d.dice} ${"category" in a ? `score ${a.category}` : `keep ${a.keep}`}`;
}

/**
 * Replays a game written as lines of `DICE keep DICE` or `DICE score BOX`
 * (what the page writes after a game) in the game of the page: every
 * decision looked up with its cost. Errors name the line.
 */
async function replay(text) {
  const g = { name: game.name, joker: game.joker, rules: game.rules, scores: {}, bonuses: 0, saved: 0, dice: [], rerolls: 2 };
  const table = await tableFor(g.name, variant(g));
  const count = rulesOf(g).dice;
  const example = count === 6 ? "333566 keep 333 or 333566 score chance" : "33356 keep 333 or 33356 score chance";
  const decisions = [];
  let kept = null;
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  if (!lines.length) throw new Error(`paste a game: one decision a line, like ${example}`);
  for (const [n, line] of lines.entries()) {
    const bad = (why) => new Error(`line ${n + 1} (${line}): ${why}`);
    const m = new RegExp(`^([1-6]{${count}})\\s+(?:keep\\s*([1-6]{0,${count}})|score\\s+([a-z-]+))$`, "i").exec(line);
    if (!m) throw bad(`write the ${count === 6 ? "six" : "five"} dice, then keep DICE or score BOX, like ${example.split(" or ")[0]}`);
    g.dice = m[1].split("").map(Number);
    if (kept !== null && !holds(m[1], kept)) throw bad(`the dice do not hold the ${kept} kept`);
    const ask = async () => {
      try {
        return await table.lookup(g.name, query(g));
      } catch (e) {
        throw bad(e.message);
      }
    };
    const answer = await ask();
    const index = m[3] !== undefined
      ? answer.options.findIndex((o) => o.action.category === m[3].toLowerCase())
      : answer.options.findIndex((o) => o.action.keep === sorted(m[2]));
    if (index < 0) {
      const why = m[3] !== undefined ? `${m[3]} is not an open box`
        : g.rerolls === 0 ? "no rerolls are left: score a box"
        : m[2].length === count ? `keeping all ${count === 6 ? "six" : "five"} is scoring now: write score BOX`
        : `${m[2] || "(nothing)"} is not among these dice`;
      throw bad(why);
    }
    decisions.push(decision(g, answer.options, index));
    const action = answer.options[index].action;
    if ("category" in action) {
      scoreBox(g, action);
      if (rulesOf(g).saved) g.saved = g.rerolls;
      g.rerolls = turnRerolls(g);
      kept = null;
    } else {
      g.rerolls -= 1;
      kept = action.keep;
    }
  }
  const open = GAMES[g.name].categories.length - Object.keys(g.scores).length;
  // Taken up where it stops: the next roll, or after a keep the throw to type.
  const state = { ...g, awaiting: kept, phase: open ? (kept === null ? "roll" : "decide") : "over", decisions };
  // After a keep the reroll is spent when its throw is typed.
  if (kept !== null) Object.assign(state, { dice: kept.split("").map(Number), kept: [...kept].map(() => true), rerolls: g.rerolls + 1 });
  else Object.assign(state, { dice: [], kept: [] });
  return { decisions, total: total(g), source: "pasted", open, resumable: open > 0, state };
}

function renderReview() {
  if (game.phase === "over" && review?.source !== "pasted") review = { decisions: game.decisions, total: total(), source: "played", open: 0 };
  $("#review-result").hidden = review === null;
  $("#resume").hidden = review?.source !== "pasted" || !review.resumable;
  if (game.phase === "over" && !$("#game-text").value) $("#game-text").value = game.decisions.map(decisionLine).join("\n");
  if (review === null) return;
  const decisions = review.decisions;
  const lost = decisions.reduce((s, d) => s + d.cost, 0);
  const mistakes = decisions.filter((d) => d.cost > 0).length;
  const unfinished = review.open ? ` (${review.open} boxes still open)` : "";
  $("#review-summary").textContent =
    `${decisions.length} decisions, ${mistakes} below the best; ${lost.toFixed(4)} points lost to optimal play in expectation. Score ${review.total}${unfinished}.`;
  $("#review-summary").dataset.lost = String(lost);
  $("#review-summary").dataset.source = review.source;
  $("#review-table tbody").replaceChildren(...decisions.map((d, i) => {
    const tr = document.createElement("tr");
    tr.dataset.cost = String(d.cost);
    tr.dataset.query = JSON.stringify({ dice: d.dice, rerolls: d.rerolls });
    if (d.cost > 0) tr.classList.add("chosen");
    tr.append(cell(String(i + 1)), cell(`${d.dice} (${d.rerolls} left)`), cell(actionText(d.options[d.chosen].action)),
      cell(actionText(d.options[0].action)), cell(d.cost.toFixed(4), "num"));
    return tr;
  }));
}

$("#new-game").addEventListener("click", () => newGame(game?.name ?? "yahtzee", $("#joker").value, $("#maxi-rules").value));
// The tabs: a sheet game (Yahtzee, Yatzy, yazy, Maxi Yatzy), 10000 (the
// duel and the one-throw advisor) or threes.
const SECTIONS = { sheet: ["#setup", "#play", "#review", "#source"], duel: ["#duel", "#tenk"], threes: ["#threes"] };
const sectionsOf = (name) => (Object.hasOwn(SECTIONS, name) ? name : "sheet");
function show(name) {
  for (const [which, ids] of Object.entries(SECTIONS)) for (const id of ids) $(id).hidden = which !== sectionsOf(name);
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-pressed", String(tab.dataset.game === name));
  if (name === "duel") startDuel();
  if (sectionsOf(name) !== "sheet") import("./advisors.js");
}
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    if (sectionsOf(tab.dataset.game) === "sheet" && !resume(tab.dataset.game)) newGame(tab.dataset.game, $("#joker").value, $("#maxi-rules").value);
    show(tab.dataset.game);
  });
}
// The duel's and the advisors' code load when first shown: not before the
// first Yahtzee advice.
let duelStarted = false;
async function startDuel() {
  if (duelStarted) return;
  duelStarted = true;
  const duel = await import("./duel.js");
  duel.wire();
  duel.newDuel($("#duel-rules").value, $("#duel-first").value === "you");
}
$("#roll").addEventListener("click", () => startRoll(Array.from({ length: info().dice }, die)));
$("#real-dice").addEventListener("change", () => { game.realDice = $("#real-dice").checked; render(); });
$("#edit-sheet").addEventListener("click", () => {
  game.error = null;
  if (!game.editing) game.editing = true;
  else if (takeSheet()) game.editing = false;
  render();
});
$("#resume").addEventListener("click", () => takeUp({ ...game, ...review.state }, []));
$("#reroll").addEventListener("click", () => reroll());
$("#undo").addEventListener("click", undo);
$("#enter").addEventListener("submit", (e) => { e.preventDefault(); enterDice($("#entered").value); });
$("#review-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("#review-error").textContent = "";
  try {
    review = await replay($("#game-text").value);
  } catch (err) {
    $("#review-error").textContent = err.message;
    return;
  }
  renderReview();
});

const params = new URLSearchParams(location.search);
// A link naming a game (?game=yatzy) opens its tab; the game under way
// there is taken up unless the link says new (which a reload then drops,
// so that reloading takes the game up).
let asked = params.get("game");
if (asked === null) {
  try {
    asked = localStorage.getItem("dice-tables:tab");
  } catch { /* storage off */ }
}
const otherTab = sectionsOf(asked) !== "sheet";
const sheetGame = Object.hasOwn(GAMES, asked) ? asked : "yahtzee";
const askedJoker = params.get("joker") === "free" ? "free" : "forced";
const askedRules = params.get("rules") === "swedish" ? "swedish" : "finnish";
const fresh = params.has("new");
if (fresh) {
  params.delete("new");
  window.history.replaceState(null, "", `${location.pathname}${params.size ? `?${params}` : ""}`);
}
if (fresh || !resume(sheetGame, { joker: params.get("joker") && askedJoker, rules: params.get("rules") && askedRules })) {
  newGame(sheetGame, askedJoker, askedRules);
}
if (asked === "duel") {
  $("#duel-rules").value = params.get("rules") === "cardgames" ? "cardgames" : "seed";
  $("#duel-first").value = params.get("first") === "table" ? "table" : "you";
}
show(otherTab ? asked : game.name);
$("#joker").value = game.joker ?? "forced";
$("#maxi-rules").value = game.rules ?? "finnish";
// The table is fetched and checked while the player reads the page.
if (!otherTab) tableFor(game.name, variant()).then(
  ({ source }) => { if (!game.source) $("#source").textContent = `Tables ready: ${source}.`; },
  (e) => { $("#source").textContent = e.message; $("#source").classList.add("error"); },
);
