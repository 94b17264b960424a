// Yahtzee, Yatzy, yazy and Maxi Yatzy with the exact optimal advice beside
// every decision, and the page's tabs. Every answer is what `reader lookup GAME
// ... --json` prints for the same state, from backend.js (in the page on a
// static site, over HTTP under `reader serve`).
import { $, availability, cell, die, percent, sinceTap, tableFor } from "./page.js";

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
    // The name the backend's review (rating, reasons) takes a game of the
    // forced joker reading by; the free reading's parts table is not made.
    coach: "yahtzee",
  },
  yatzy: {
    title: "Yatzy",
    dice: 5,
    bonusAt: 63,
    categories: ["ones", "twos", "threes", "fours", "fives", "sixes", "pair", "two-pairs", "three-kind", "four-kind",
      "small-straight", "large-straight", "full-house", "chance", "yatzy"],
    upperBonus: 50,
    coach: "yatzy",
  },
  yazy: {
    title: "yazy",
    dice: 5,
    bonusAt: 63,
    categories: ["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
      "straight", "yazy"],
    upperBonus: 0, // no bonuses: the points already scored do not matter
    coach: "yazy",
    // Its games against someone too: the two-player table is exact.
    coachAgainst: true,
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
    // The finnish rules' games, where the backend holds their parts table
    // (maxi-yatzy-parts.dtab, 441 MB, which make tables leaves out): a
    // backend without it says so in the coach's line.
    coach: "maxi-yatzy",
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

/** An option's value: the chance of winning against someone, else the points still to come. */
const value = (o) => o.p ?? o.ev;

/** The decision of taking option `index` of `options` in `g`'s state (its lookup `q`), by its mover, with its cost against the best. */
function decision(g, options, index) {
  return { seat: g.seat, dice: sorted(g.dice), rerolls: g.rerolls, q: query(g), options, chosen: index, cost: value(options[0]) - value(options[index]) };
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

/**
 * The players of a game against `opponent` ("computer", "table" or none),
 * in the order they play; `first`: who starts against the computer ("you"
 * or "computer").
 */
function seating(opponent, first) {
  if (opponent === "computer") return first === "computer" ? { players: ["the computer", "you"], computerSeat: 0 } : { players: ["you", "the computer"], computerSeat: 1 };
  if (opponent === "table") return { players: ["player 1", "player 2"], computerSeat: -1 };
  return { players: ["you"], computerSeat: -1 };
}

/** A sheet with nothing scored. */
const emptySheet = () => ({ scores: {}, bonuses: 0, saved: 0 });

function newGame(name, joker, rules, opponent = null, first = "you", target = 250) {
  // Maxi Yatzy is played for points alone: no two-player or target table
  // reads six dice. "target" is played alone, for the chance of reaching a score.
  const against = name === "maxi-yatzy" || opponent === "target" ? null : opponent || null;
  game = {
    name, joker: name === "yahtzee" ? joker : null,
    rules: name === "maxi-yatzy" ? rules : null, // finnish | swedish
    // Against someone: the mover's sheet is the game's own fields (scores,
    // bonuses, saved), the other player's is `other`; they swap at the end
    // of every turn, so that every lookup asks from the mover's side, as
    // the tables do.
    opponent: against, ...seating(against, first),
    seat: 0, // the mover's place in `players`
    other: against ? emptySheet() : null,
    target: opponent === "target" && name !== "maxi-yatzy" ? target : null, // the final score to reach, played alone
    view: "chance", // against someone or for a score: the options by chance, or by points ("points")
    log: [], // the computer's steps this turn: {dice, rerolls, action, p, query}
    scores: {}, // category -> box points (a Yahtzee bonus apart)
    bonuses: 0, // Yahtzee bonuses
    saved: 0, // rerolls saved from earlier turns (swedish Maxi Yatzy)
    dice: [], kept: [], rerolls: 0,
    phase: "roll", // roll | decide | over
    decisions: [], // {dice, rerolls, options, chosen, cost}
    filledByHand: false, // a sheet filled in by hand: the game's text does not hold its start
    answer: null, error: null,
    realDice: $("#real-dice").checked, // the page never rolls: it asks for the dice shown
    awaiting: null, // with real dice: the dice kept, until the dice thrown are typed
    editing: false, // the sheet's boxes being filled in by hand
  };
  history = [];
  review = null;
  $("#game-text").value = "";
  showSetup();
  render();
  playComputer();
  markAvailable();
}

const info = () => rulesOf(game);
/**
 * What `g`'s lookups read: the chance of winning "against" someone, the
 * chance of reaching a "target" score alone, or the most "points".
 */
const reads = (g = game) => (g.other ? "against" : g.target != null ? "target" : "points");
/** How a game was set up: its opponent, "target", or null alone for points. */
const mode = (g) => (g.target != null ? "target" : g.opponent ?? null);
/** Whether the computer is to move in `g`. */
const computerMoves = (g = game) => g.seat === g.computerSeat;
/** The sheet of seat `s` in `g`, as a game of its own (the mover's is `g` itself). */
const sheetAt = (g, s) => (s === g.seat ? g : { ...g, ...g.other });
/** A player's name as a sheet's heading: "You", "Player 1". */
const title = (name) => name[0].toUpperCase() + name.slice(1);
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

/**
 * The lookup of `g`'s decision: against someone, the chance of winning
 * from the mover's side (both sheets and the points so far, the upper bonus
 * apart as the tables count it), unless `points`: the most points.
 */
function query(g = game, { points = false } = {}) {
  const q = { mask: mask(g), dice: sorted(g.dice), rerolls: g.rerolls };
  if (rulesOf(g).upperBonus) q.upper = upper(g);
  if (g.name === "yahtzee" && g.scores.yahtzee === 50) q["yahtzee-bonus"] = true;
  if (rulesOf(g).saved) Object.assign(q, { saved: g.saved, rules: g.rules });
  if (g.target != null && !points) q.need = g.target - scored(g);
  if (g.other && !points) {
    const o = sheetAt(g, 1 - g.seat);
    q["opp-mask"] = mask(o);
    if (rulesOf(g).upperBonus) q["opp-upper"] = upper(o);
    if (g.name === "yahtzee" && o.scores.yahtzee === 50) q["opp-yahtzee-bonus"] = true;
    Object.assign(q, { me: scored(g), opp: scored(o) });
  }
  return q;
}

async function advise() {
  game.answer = null;
  game.points = null;
  game.error = null;
  render();
  const asked = game;
  try {
    // Against someone, the chance of winning (the two-player table or the
    // advisor's target table); for a score, the chance of reaching it (the
    // target table); the points beside either when the player asks.
    const table = await tableFor(game.name, variant(), reads());
    const answer = await table.lookup(game.name, query());
    let points = null;
    if (reads() !== "points" && game.view === "points" && !computerMoves()) {
      points = await (await tableFor(game.name, variant())).lookup(game.name, query(game, { points: true }));
    }
    if (asked !== game) return;
    Object.assign(game, { answer, points, source: table.source });
    advised += 1;
  } catch (e) {
    if (asked !== game) return;
    // A table the server lacks: said to the player in the note at the top
    // (the operator's command in its detail), not here.
    game.error = e.missing ? "This game needs a table this server does not have: see the note at the top." : e.message;
  }
  render();
  // From the player's tap, and from navigation, to the advice in the page
  // (read by the browser test). Unrounded: what is fetched after it (the
  // review's code, just below) must start later by the same clock.
  Object.assign($("#state").dataset, { ms: sinceTap(), at: String(performance.now()) });
  // The review's code (and the drills'), fetched once the first advice
  // shows: a game played on with the network gone is still reviewed at its end.
  if (advised === 1) {
    drillsShownFor = game.name;
    reviewing().then((m) => m.renderDrills(), () => {});
  }
  playComputer();
}

/** Undo steps are the players' own: the computer's moves are taken back with the move before them. */
function snapshot() {
  if (!computerMoves()) history.push(JSON.stringify({ ...game, answer: null, points: null }));
}

/** When the computer is to move: rolls (unless the dice are real) or takes its best option; its steps are logged. */
function playComputer() {
  if (!computerMoves() || game.error || game.editing) return;
  if (game.phase === "roll" && !game.realDice) {
    if (!game.log.length) computerStarted = performance.now();
    startRoll(Array.from({ length: info().dice }, die));
  } else if (game.phase === "decide" && game.answer && game.awaiting === null) {
    const { action, p } = game.answer.options[0];
    game.log.push({ dice: sorted(game.dice), rerolls: game.rerolls, action, p, query: JSON.stringify(query()) });
    choose(0);
  }
}
let computerStarted = 0;

/**
 * The end of a turn: against someone the other player moves next (their
 * sheet becomes the game's own fields); the game is over when no box is
 * left to the player to move.
 */
function endTurn(g) {
  if (g.other) {
    const mine = { scores: g.scores, bonuses: g.bonuses, saved: g.saved };
    Object.assign(g, g.other);
    g.other = mine;
    g.seat = 1 - g.seat;
    if (computerMoves(g)) g.log = [];
  }
  g.phase = GAMES[g.name].categories.some((c) => !(c in g.scores)) ? "roll" : "over";
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
    game.points = null;
    // The next player's turn starts with no dice shown; alone, the dice scored stay.
    if (game.other) [game.dice, game.kept] = [[], []];
    endTurn(game);
    // The computer's whole turn, from its roll to its box (read by the browser test).
    if (game.computerSeat >= 0 && !computerMoves() && game.log.length) game.computerMs = (performance.now() - computerStarted).toFixed(0);
    render();
    playComputer();
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
  $("#opponent-choice").hidden = game.name === "maxi-yatzy";
  $("#first-choice").hidden = game.name === "maxi-yatzy" || $("#opponent").value !== "computer";
  $("#target-choice").hidden = game.name === "maxi-yatzy" || $("#opponent").value !== "target";
  const two = game.other !== null;
  const chance = reads() !== "points";
  const computer = computerMoves() && game.phase !== "over";
  const mover = game.players[game.seat];
  const state = $("#state");
  state.dataset.game = game.name;
  state.dataset.phase = game.phase;
  state.dataset.query = game.phase === "decide" ? JSON.stringify(query()) : "";
  state.dataset.advised = String(advised);
  state.dataset.mover = two ? mover : "";
  state.dataset.computerMs = game.computerMs ?? "";
  const tappable = game.phase === "decide" && game.rerolls > 0 && game.answer && game.awaiting === null && !computer;
  state.replaceChildren(...game.dice.map((d, i) => {
    const b = document.createElement("button");
    b.className = game.kept[i] ? "die kept" : "die";
    b.textContent = String(d);
    b.setAttribute("aria-pressed", String(game.kept[i]));
    b.disabled = !tappable;
    b.addEventListener("click", () => { game.kept[i] = !game.kept[i]; render(); });
    return b;
  }));
  state.dataset.awaiting = game.awaiting ?? "";
  $("#roll").disabled = game.phase !== "roll" || game.realDice || game.editing || computer;
  $("#roll").hidden = game.realDice;
  $("#real-dice").checked = game.realDice;
  const edit = $("#edit-sheet");
  edit.disabled = !((game.phase === "roll" && !computer) || game.editing);
  edit.textContent = game.editing ? "Done" : "Fill in the sheet";
  // Keeping every die is scoring now: the sheet's buttons do it.
  $("#reroll").disabled = !(tappable && !game.kept.every(Boolean));
  $("#undo").disabled = history.length === 0 || computer;
  const savedNote = info().saved ? ` (${game.saved} saved)` : "";
  $("#rerolls-left").textContent = game.phase === "decide" ? `${game.rerolls} reroll${game.rerolls === 1 ? "" : "s"} left` : game.phase === "roll" && info().saved ? `${turnRerolls(game)} rerolls this turn${savedNote}` : "";

  // Against someone the options are ranked by the chance of winning, or by
  // points when the player asks (the chance's lookup still decides the review).
  const byPoints = !chance || (game.view === "points" && game.points !== null);
  const shown = byPoints && chance ? game.points : game.answer;
  const advice = $("#advice");
  advice.classList.toggle("error", game.error !== null);
  const who = two ? `${title(mover)}: ` : "";
  if (game.error) advice.textContent = game.error;
  else if (computer) {
    advice.textContent = game.awaiting !== null ? `The computer keeps ${game.awaiting || "nothing"}: throw the other ${info().dice - game.awaiting.length} for it and type all the dice showing.`
      : game.phase === "roll" && game.realDice ? "The computer's turn: throw for it and type its dice."
      : "The computer's turn.";
  } else if (game.answer && two) {
    const p = game.answer.p;
    const how = game.answer.exact ? "exact, from the two-player table" : "an estimate: the opponent-aware advisor's";
    advice.textContent = `${who}chance of winning ${percent(p)} (ties half; ${how}). Best: ${actionText(game.answer.best)}`;
  } else if (game.answer && chance) {
    const need = game.target - scored();
    advice.textContent = `Chance of a final score of ${game.target} or more: ${percent(game.answer.p)} (exact; ${need > 0 ? `${need} more to score` : "reached"}). Best: ${actionText(game.answer.best)}`;
  } else if (game.answer) {
    const ev = game.answer.ev;
    advice.textContent = `Best: ${actionText(game.answer.best)} (expected ${ev.toFixed(4)} points still to come: a final score of ${(scored() + ev).toFixed(2)})`;
  } else if (game.awaiting !== null) {
    const n = info().dice;
    advice.textContent = `${who}keep ${game.awaiting || "nothing"}, throw the other ${n - game.awaiting.length}, and type all ${n === 6 ? "six" : "five"} dice showing.`;
  } else if (game.editing) advice.textContent = two ? "Type each box's points on both sheets as they stand (nothing in an open box), then Done." : "Type each box's points as the sheet stands (nothing in an open box), then Done.";
  else if (game.phase === "roll" && game.realDice) advice.textContent = `${who}roll at the table and type the dice.`;
  else if (game.phase === "over") advice.textContent = `Game over.${two ? ` ${result()}.` : ""}`;
  else advice.textContent = game.phase === "roll" ? `${who}roll the dice, or type the dice you rolled.` : "";
  advice.dataset.best = game.answer && !computer ? JSON.stringify(game.answer.best) : "";
  // A lookup that failed (a chunk the network did not give) can be asked again.
  $("#retry").hidden = !(game.error && game.phase === "decide" && !game.answer && game.awaiting === null);
  advice.dataset.p = game.answer && chance && !computer ? String(game.answer.p) : "";
  advice.dataset.exact = game.answer && two ? String(game.answer.exact) : "";
  $("#view-choice").hidden = !chance || game.phase === "over";
  $("#points-view").checked = game.view === "points";

  const options = shown && !computer ? shown.options : [];
  $("#options").hidden = options.length === 0;
  $("#value-head").textContent = byPoints ? "points to come" : "chance of winning";
  $("#final-head").hidden = !byPoints;
  const best = options.length ? value(options[0]) : 0;
  $("#options tbody").replaceChildren(...options.map((o, i) => {
    const tr = document.createElement("tr");
    tr.dataset.action = JSON.stringify(o.action);
    if (i === 0) tr.classList.add("best");
    if (byPoints) {
      tr.dataset.ev = String(o.ev);
      tr.dataset.final = String(scored() + o.ev);
      tr.append(cell(String(i + 1)), cell(actionText(o.action)), cell(o.ev.toFixed(2), "num"), cell((best - o.ev).toFixed(3), "num"), cell((scored() + o.ev).toFixed(2), "num"));
    } else {
      tr.dataset.p = String(o.p);
      tr.append(cell(String(i + 1)), cell(actionText(o.action)), cell(percent(o.p), "num"), cell(percent(best - o.p), "num"));
    }
    // A row of the points' ranking is the same action among the chance's options.
    const index = shown === game.answer ? i : findOption((a) => JSON.stringify(a) === tr.dataset.action);
    tr.addEventListener("click", () => choose(index));
    return tr;
  }));
  renderLog();
  renderSheet(two, computer);
  if (game.source) {
    const joker = game.joker ? `, ${game.joker} joker reading` : game.rules ? `, ${game.rules} rules` : "";
    const against = two ? `, ${game.players.join(" against ")}` : game.target != null ? `, for ${game.target} or more` : "";
    $("#source").textContent = `${info().title}${joker}${against}: answered from ${game.source}.`;
    $("#source").dataset.table = game.source;
  }
  renderReview();
  save();
}

/** The computer's steps this turn (or its last turn's, while the player moves). */
function renderLog() {
  const log = $("#turn-log");
  log.hidden = game.computerSeat < 0 || !game.log.length;
  log.replaceChildren(...game.log.map((step) => {
    const li = document.createElement("li");
    li.dataset.query = step.query;
    li.dataset.action = JSON.stringify(step.action);
    li.textContent = `The computer: ${step.dice} (${step.rerolls} left): ${actionText(step.action)}; its chance ${percent(step.p)}`;
    return li;
  }));
}

/** The sheet (both, side by side, against someone): boxes, points, what the dice shown would score now, and the totals. */
function renderSheet(two, computer) {
  $("#sheet").classList.toggle("solo", !two);
  const seats = two ? [0, 1] : [0];
  const sheets = seats.map((s) => sheetAt(game, s));
  $("#points-head").textContent = two ? title(game.players[0]) : "points";
  $("#points-head-b").textContent = two ? title(game.players[1]) : "";
  for (const td of document.querySelectorAll("#sheet tfoot td.first")) td.colSpan = two ? 1 : 4;
  const sheet = $("#sheet tbody");
  // What is typed in the boxes stays while the sheet is being filled in (a refusal too).
  const typed = Object.fromEntries([...sheet.querySelectorAll("input[data-box]")].map((i) => [`${i.dataset.seat} ${i.dataset.box}`, i.value]));
  sheet.replaceChildren(...info().categories.map((c) => {
    const tr = document.createElement("tr");
    tr.dataset.category = c;
    const points = [0, 1].map((s) => {
      const g = sheets[s];
      const td = cell(g && c in g.scores && !game.editing ? String(g.scores[c]) : "", s ? "num second" : "num");
      if (!g) return td;
      td.dataset.seat = String(s);
      if (s === game.seat && two) td.classList.add("mover");
      if (c in g.scores) td.dataset.points = String(g.scores[c]);
      if (game.editing) {
        const input = document.createElement("input");
        Object.assign(input, { value: typed[`${s} ${c}`] ?? (c in g.scores ? String(g.scores[c]) : ""), inputMode: "numeric", size: 3 });
        Object.assign(input.dataset, { box: c, seat: String(s) });
        input.setAttribute("aria-label", two ? `${c} points, ${game.players[s]}` : `${c} points`);
        td.append(input);
      }
      return td;
    });
    const act = document.createElement("td");
    const index = findOption((a) => a.category === c);
    // What the dice shown would score there now.
    const now = cell(index >= 0 && !(c in game.scores) ? String(game.answer.options[index].action.points) : "", "num now");
    if (now.textContent) now.dataset.now = now.textContent;
    if (!(c in game.scores) && game.phase === "decide" && index >= 0 && !computer) {
      const b = document.createElement("button");
      b.textContent = "score";
      b.dataset.score = c;
      b.addEventListener("click", () => choose(index));
      act.append(b);
    }
    tr.append(cell(boxName(c)), ...points, now, act);
    return tr;
  }));
  $("#upper-bonus-row").hidden = !info().upperBonus;
  // Par: the bonus's pace, bonusAt / 21 of each face (three of each at 63).
  const upperText = (g) => {
    const up = upper(g);
    const par = info().categories.slice(0, UPPER).reduce((s, c, i) => s + (c in g.scores ? ((i + 1) * info().bonusAt) / 21 : 0), 0);
    const ahead = Math.round(up - par);
    return upperBonus(g) ? `${upperBonus(g)} (upper ${up})` : `${up} of ${info().bonusAt}; par ${Math.round(par)} (${ahead >= 0 ? "+" : ""}${ahead})`;
  };
  const [a, b] = [sheets[0], sheets[1] ?? null];
  $("#upper-bonus").textContent = upperText(a);
  $("#upper-bonus-b").textContent = b ? upperText(b) : "";
  $("#yahtzee-bonus-row").hidden = game.name !== "yahtzee";
  $("#yahtzee-bonuses").textContent = String(a.bonuses);
  $("#yahtzee-bonuses-b").textContent = b ? String(b.bonuses) : "";
  $("#total").textContent = String(total(a));
  $("#total").dataset.total = String(total(a));
  $("#total-b").textContent = b ? String(total(b)) : "";
  $("#total-b").dataset.total = b ? String(total(b)) : "";
  $("#saved-row").hidden = !(game.editing && info().saved);
  $("#saved-input").value = String(game.saved);
  $("#bonuses-row").hidden = !(game.editing && game.name === "yahtzee");
  $("#bonuses-input").value = String(a.bonuses);
  $("#bonuses-input-b").value = b ? String(b.bonuses) : "";
}

/** Against someone: the totals, and once the game is over who won. */
function result(g = game) {
  const [a, b] = [0, 1].map((s) => total(sheetAt(g, s)));
  const [p, q] = g.players;
  const line = `${title(p)} ${a}, ${q} ${b}`;
  if (g.phase !== "over") return line;
  if (a === b) return `${line}: a tie`;
  const winner = a > b ? p : q;
  return `${line}: ${winner === "you" ? "you win" : `${winner} wins`}`;
}

/** Where the game of each sheet tab is kept between visits and reloads. */
const STORED = "dice-tables:sheet:";

/** Keeps the game in progress (and its undo steps) in the browser. */
function save() {
  try {
    localStorage.setItem(STORED + game.name, JSON.stringify({ game: { ...game, answer: null, points: null, error: null }, history }));
    localStorage.setItem("dice-tables:tab", game.name);
  } catch {
    // Storage off or full: the game goes on, unsaved.
  }
}

/**
 * Takes up the game of tab `name` kept in the browser, if one is under way
 * (under `joker`, `rules` or against `opponent` where they are given); true
 * if it did.
 */
function resume(name, { joker, rules, opponent } = {}) {
  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(STORED + name));
  } catch {
    return false;
  }
  const g = kept?.game;
  if (!g || g.name !== name || g.phase === "over" || (joker && g.joker !== joker) || (rules && g.rules !== rules)) return false;
  if (opponent !== undefined && mode(g) !== opponent) return false;
  takeUp(g, Array.isArray(kept.history) ? kept.history : []);
  return true;
}

/** Plays on from game state `g` (kept in the browser, or a pasted game's end) with undo steps `steps`. */
function takeUp(g, steps) {
  // A game kept before two-player play was written is a game alone.
  const alone = { opponent: null, ...seating(null), seat: 0, other: null, target: null, view: "chance", log: [] };
  game = { ...alone, ...g, answer: null, points: null, error: null, awaiting: g.awaiting ?? null, editing: false };
  history = steps;
  review = null;
  showSetup();
  if (game.phase === "decide" && game.awaiting === null) advise();
  else {
    render();
    playComputer();
  }
  markAvailable();
}

/** The setup's choices as the game on the page was set up. */
function showSetup() {
  $("#joker").value = game.joker ?? "forced";
  $("#maxi-rules").value = game.rules ?? "finnish";
  $("#opponent").value = mode(game) ?? "";
  if (game.target != null) $("#target").value = String(game.target);
  $("#first").value = game.computerSeat === 0 ? "computer" : "you";
}

/**
 * The sheet (against someone, both sheets) as filled in by hand, taken:
 * true, or false with the first box that cannot hold what was typed.
 * Against someone the player with more boxes open moves, the first player
 * when both have as many.
 */
function takeSheet() {
  const two = game.other !== null;
  const scores = [{}, {}];
  for (const input of document.querySelectorAll("#sheet input[data-box]")) {
    const p = typedPoints(game, input.dataset.box, input.value);
    if (p instanceof Error) {
      game.error = two ? `${game.players[input.dataset.seat]}'s ${p.message}` : p.message;
      return false;
    }
    if (p !== undefined) scores[input.dataset.seat][input.dataset.box] = p;
  }
  const boxes = info().categories.length;
  const open = scores.map((s) => boxes - Object.keys(s).length);
  if (open[0] === 0 && (!two || open[1] === 0)) {
    game.error = "every box is filled: leave at least one open to play on";
    return false;
  }
  if (two && open[0] !== open[1] && open[1] !== open[0] + 1) {
    game.error = `${game.players[0]} has ${open[0]} boxes open and ${game.players[1]} ${open[1]}: ${game.players[0]} plays first, so as many open, or one more for ${game.players[1]}`;
    return false;
  }
  const saved = $("#saved-input").value.trim();
  if (info().saved && !/^\d+$/.test(saved)) {
    game.error = `saved rerolls "${saved}": a whole number from 0 (two a turn played at most)`;
    return false;
  }
  const bonuses = [$("#bonuses-input"), $("#bonuses-input-b")].map((i) => i.value.trim() || "0");
  for (const s of two ? [0, 1] : [0]) {
    if (game.name === "yahtzee" && !(/^\d+$/.test(bonuses[s]) && Number(bonuses[s]) % 100 === 0 && (bonuses[s] === "0" || scores[s].yahtzee === 50))) {
      game.error = `${two ? `${game.players[s]}'s ` : ""}Yahtzee bonuses "${bonuses[s]}": a multiple of 100, and only with 50 in the yahtzee box`;
      return false;
    }
  }
  snapshot();
  const sheet = (s) => ({ scores: scores[s], bonuses: game.name === "yahtzee" ? Number(bonuses[s]) : 0, saved: 0 });
  const mover = two && open[1] > open[0] ? 1 : 0;
  Object.assign(game, sheet(mover), { seat: mover, other: two ? sheet(1 - mover) : null, log: [], filledByHand: true });
  if (info().saved) game.saved = Math.min(Number(saved), 2 * Object.keys(scores[0]).length);
  return true;
}

/** What a review shows: the game just played once it is over, or one pasted. */
let review = null;
/** The review's code (review.js), fetched after the first advice (or when a game ends, or one is pasted): no advice waits for it. */
let reviewCode = null;
/** The game whose drills were last shown: they change only with the tab, a game's end or a drill answered (review.js shows those). */
let drillsShownFor = null;
const reviewing = () => (reviewCode ??= import("./review.js").catch((e) => {
  // Fetched again at the next try (the network back).
  reviewCode = null;
  throw e;
}));
function renderReview() {
  if (game.phase !== "over" && review === null) {
    $("#review-result").hidden = $("#resume").hidden = true;
    if (reviewCode && drillsShownFor !== game.name) {
      drillsShownFor = game.name;
      reviewCode.then((m) => m.renderDrills(), () => {});
    }
    return;
  }
  const said = $("#review-error");
  reviewing().then((m) => {
    review = m.renderReview(review);
    if (said.dataset.unloaded) said.textContent = said.dataset.unloaded = "";
  }, () => {
    said.textContent = said.dataset.unloaded = "The review could not be loaded (is the network down?): it shows when the network is back.";
    addEventListener("online", renderReview, { once: true });
  });
}

/**
 * The setup's choices a missing table rules out, marked (unavailable.js),
 * where the backend can lack a table (reader serve's; a static site holds
 * every table its page reads, and does not load it).
 */
const marking = availability ? import("./unavailable.js") : null;
function markAvailable() {
  const g = game;
  const begun = g.phase !== "roll" || (g.decisions?.length ?? 0) > 0 || history.length > 0 || (g.log?.length ?? 0) > 0;
  marking?.then((m) => m.markAvailable(g, () => game, { variant, reads, mode, begun, newGame }));
}
/** A choice the player makes: the game set up without a table is no longer news. */
const forgetUnavailable = () => marking?.then((m) => m.forget());

/** The setup's choices for a new game: joker reading, Maxi Yatzy's rules, opponent, who starts. */
const chosen = () => [$("#joker").value, $("#maxi-rules").value, $("#opponent").value || null, $("#first").value, targetScore($("#target").value)];
/** A score to reach as typed: a whole number from 1 (250 otherwise). */
const targetScore = (text) => (/^\d+$/.test(String(text ?? "").trim()) && Number(text) >= 1 ? Math.min(Number(text), 1000) : 250);
$("#new-game").addEventListener("click", () => {
  forgetUnavailable();
  newGame(game?.name ?? "yahtzee", ...chosen());
});
$("#opponent").addEventListener("change", () => {
  $("#first-choice").hidden = $("#opponent").value !== "computer";
  $("#target-choice").hidden = $("#opponent").value !== "target";
});
// Which opponents a joker reading or rule set leaves available.
$("#joker").addEventListener("change", markAvailable);
$("#maxi-rules").addEventListener("change", markAvailable);
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
    forgetUnavailable();
    if (sectionsOf(tab.dataset.game) === "sheet" && !resume(tab.dataset.game)) newGame(tab.dataset.game, ...chosen());
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
// Against someone: the options by points instead of by chance of winning, or back.
$("#points-view").addEventListener("change", () => {
  game.view = $("#points-view").checked ? "points" : "chance";
  if (game.phase === "decide" && game.awaiting === null) advise();
  else render();
});
$("#real-dice").addEventListener("change", () => { game.realDice = $("#real-dice").checked; render(); });
$("#edit-sheet").addEventListener("click", () => {
  game.error = null;
  if (!game.editing) game.editing = true;
  else if (takeSheet()) game.editing = false;
  render();
  playComputer();
});
$("#resume").addEventListener("click", () => takeUp({ ...game, ...review.state }, []));
$("#reroll").addEventListener("click", () => reroll());
$("#undo").addEventListener("click", undo);
$("#retry").addEventListener("click", advise);
$("#enter").addEventListener("submit", (e) => { e.preventDefault(); enterDice($("#entered").value); });
$("#review-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("#review-error").textContent = "";
  try {
    review = await (await reviewing()).replay($("#game-text").value);
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
const askedOpponent = ["computer", "table", "target"].includes(params.get("opponent")) ? params.get("opponent") : null;
const askedTarget = targetScore(params.get("target"));
const askedFirst = params.get("first") === "computer" ? "computer" : "you";
const fresh = params.has("new");
if (fresh) {
  params.delete("new");
  window.history.replaceState(null, "", `${location.pathname}${params.size ? `?${params}` : ""}`);
}
const opponent = params.has("opponent") ? askedOpponent : undefined;
if (fresh || !resume(sheetGame, { joker: params.get("joker") && askedJoker, rules: params.get("rules") && askedRules, opponent })) {
  newGame(sheetGame, askedJoker, askedRules, askedOpponent, askedFirst, askedTarget);
}
if (asked === "duel") {
  $("#duel-rules").value = params.get("rules") === "cardgames" ? "cardgames" : "seed";
  $("#duel-first").value = params.get("first") === "table" ? "table" : "you";
}
show(otherTab ? asked : game.name);
showSetup();
// The table is fetched and checked while the player reads the page.
// A table the server lacks is said in the note at the top instead.
if (!otherTab) tableFor(game.name, variant(), reads()).then(
  ({ source }) => { if (!game.source) $("#source").textContent = `Tables ready: ${source}.`; },
  (e) => {
    $("#source").textContent = e.missing ? "" : e.message;
    $("#source").classList.toggle("error", !e.missing);
  },
);

// What review.js takes from the game on the page.
export { GAMES, game, save, value, seating, emptySheet, variant, reads, rulesOf, holds, query, sorted, decision, scoreBox, endTurn, turnRerolls, total, result, actionText, title };
