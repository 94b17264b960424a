// The review of a game: the one just played, once it is over, or one
// pasted as text; every decision looked up with its cost, and a points
// game's accuracy. Then the drills: the player's larger mistakes, kept in
// the browser and played back. Loaded by play.js once the first advice
// shows (or a game ends, or a text is pasted), so that no advice waits for it.
import { $, cell, offerDrill, percent, storedList, storeList, tableFor } from "./page.js";
import {
  GAMES, game, save, value, seating, emptySheet, variant, reads, rulesOf, holds, query, sorted, decision, scoreBox, endTurn, turnRerolls, total, result, actionText, title,
} from "./play.js";
import { ruleReview } from "./rules-backend.js";
import { showCoach, showCurve } from "./coach.js";

/**
 * A game's text: a header naming game `name` (and the `target` played for,
 * if any), then a line a decision (`two`: against someone).
 */
const gameText = (name, decisions, two, target = null) =>
  [`game: ${name}`, ...(target == null ? [] : [`target: ${target}`]), ...decisions.map((d) => decisionLine(d, two))].join("\n");

/** A decision as a line of a game's text: the dice, then the choice; against someone, the player (1 or 2) first. */
function decisionLine(d, two) {
  const a = d.options[d.chosen].action;
  return `${two ? `${d.seat + 1}: ` : ""}${d.dice} ${"category" in a ? `score ${a.category}` : `keep ${a.keep}`}`;
}

/**
 * Replays a game written as lines of `DICE keep DICE` or `DICE score BOX`
 * (what the page writes after a game; against someone each line starts
 * with the player, `1:` or `2:`) in the game of the page: every decision
 * looked up with its cost, against someone in chance of winning. Errors
 * name the line.
 */
export async function replay(text) {
  // Each line with its number in the text, blank lines skipped; a first
  // line `game: NAME` (the page writes one) names the game, and a line
  // `target: POINTS` after it the score a game alone was played for.
  const lines = text.split("\n").map((l, i) => [i + 1, l.trim()]).filter(([, l]) => l !== "");
  const header = /^game:\s*(\S+)$/i.exec(lines[0]?.[1] ?? "");
  if (header) {
    const [n, line] = lines.shift();
    if (header[1].toLowerCase() !== game.name) throw new Error(`line ${n} (${line}): the text is a game of ${header[1]}, reviewed here as ${game.name}'s: open its tab, or write game: ${game.name}`);
  }
  const goal = /^target:\s*(\d{1,4})$/i.exec(lines[0]?.[1] ?? "");
  if (goal) lines.shift();
  const two = /^[12]\s*:/.test(lines[0]?.[1] ?? "");
  // A two-player game pasted on a page set up alone is two people at a table.
  const seats = two ? (game.other ? { opponent: game.opponent, players: game.players, computerSeat: game.computerSeat } : { opponent: "table", ...seating("table") })
    : { opponent: null, ...seating(null) };
  // Alone, a game is reviewed for the score its text names, else for the
  // one the page is playing for.
  const target = two ? null : goal ? Number(goal[1]) : game.target;
  const g = { name: game.name, joker: game.joker, rules: game.rules, ...emptySheet(), ...seats, seat: 0, other: two ? emptySheet() : null, target, log: [], dice: [], rerolls: 2 };
  const table = await tableFor(g.name, variant(g), reads(g));
  const count = rulesOf(g).dice;
  const example = count === 6 ? "333566 keep 333 or 333566 score chance" : "33356 keep 333 or 33356 score chance";
  const decisions = [];
  let kept = null;
  if (!lines.length) throw new Error(`paste a game: one decision a line, like ${example}`);
  for (const [n, line] of lines) {
    const bad = (why) => new Error(`line ${n} (${line}): ${why}`);
    const m = new RegExp(`^(?:([12])\\s*:\\s*)?([1-6]{${count}})\\s+(?:keep\\s*([1-6]{0,${count}})|score\\s+([a-z-]+))$`, "i").exec(line);
    if (!m) throw bad(`write the ${count === 6 ? "six" : "five"} dice, then keep DICE or score BOX, like ${two ? "1: " : ""}${example.split(" or ")[0]}`);
    if (two !== (m[1] !== undefined)) throw bad(two ? "write the player first, 1: or 2:, as on the first line" : "the first line names no player: write none on the others");
    if (two && Number(m[1]) !== g.seat + 1) throw bad(`it is ${g.players[g.seat]}'s turn (${g.seat + 1}:)`);
    g.dice = m[2].split("").map(Number);
    if (kept !== null && !holds(m[2], kept)) throw bad(`the dice do not hold the ${kept} kept`);
    const ask = async () => {
      try {
        return await table.lookup(g.name, query(g));
      } catch (e) {
        throw bad(e.message);
      }
    };
    const answer = await ask();
    const index = m[4] !== undefined
      ? answer.options.findIndex((o) => o.action.category === m[4].toLowerCase())
      : answer.options.findIndex((o) => o.action.keep === sorted(m[3]));
    if (index < 0) {
      const why = m[4] !== undefined ? `${m[4]} is not an open box`
        : g.rerolls === 0 ? "no rerolls are left: score a box"
        : m[3].length === count ? `keeping all ${count === 6 ? "six" : "five"} is scoring now: write score BOX`
        : `${m[3] || "(nothing)"} is not among these dice`;
      throw bad(why);
    }
    decisions.push(decision(g, answer.options, index));
    const action = answer.options[index].action;
    if ("category" in action) {
      scoreBox(g, action);
      if (rulesOf(g).saved) g.saved = g.rerolls;
      endTurn(g);
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
  return { ...reviewOf(g, decisions), source: "pasted", open, resumable: open > 0, state };
}

/** What a review of game `g` with `decisions` shows besides them: the players and the score. */
function reviewOf(g, decisions) {
  return { of: g, decisions, two: g.other !== null, target: g.target, players: g.players, computerSeat: g.computerSeat, total: total(g), result: g.other ? result(g) : "" };
}

/** Each game's value at its start in points, looked up once (kept apart: a game is saved as JSON). */
const starts = new WeakMap();
function startValue(g) {
  if (!starts.has(g)) {
    // Played for a score, the chance of reaching it from the start.
    const fresh = { ...g, ...emptySheet(), other: null, dice: [] };
    const { dice, rerolls, ...q } = query(fresh);
    starts.set(g, tableFor(g.name, variant(g), reads(fresh)).then((table) => table.lookup(g.name, q)).then((a) => a.ev ?? a.p));
  }
  return starts.get(g);
}

/** The review last shown: an accuracy looked up for another is not shown. */
let shown = null;
/**
 * A game's accuracy alone, 100 · e^(−4 · lost / start) (the guide's
 * formula; the rule sets' review gives the same): 100 for the best play,
 * 100/e when a quarter of the start's value is given away; for a score,
 * in the chance of reaching it.
 */
function showAccuracy(r, lost) {
  shown = r;
  const line = $("#review-accuracy");
  line.textContent = "";
  delete line.dataset.accuracy;
  if (r.two) return;
  const [given, worth] = r.target == null
    ? [lost.toFixed(4), "the game's value at its start"]
    : [percent(lost, 3), `its chance of ${r.target} or more at its start`];
  startValue(r.of).then((start) => {
    if (shown !== r) return;
    const accuracy = start > 0 && lost > 0 ? 100 * Math.exp((-4 * lost) / start) : 100;
    Object.assign(line.dataset, { accuracy: String(accuracy), start: String(start) });
    const at = r.target == null ? start.toFixed(4) : percent(start, 3);
    line.textContent = `Accuracy${r.open ? " so far" : ""} ${accuracy.toFixed(1)} of 100: 100 · e^(−4 × ${given} lost / ${at}, ${worth}).`;
  }, (e) => {
    if (shown === r) line.textContent = `No accuracy: the game's value at its start could not be looked up (${e.message}).`;
  });
}

/**
 * The backend's review of a game of a game it reviews (Yatzy, yazy,
 * Yahtzee under the forced joker reading and Maxi Yatzy under the finnish
 * rules: `GAMES[name].coach`), for
 * points or for a score, or against someone where its two-player table is
 * exact (yazy: `coachAgainst`), from the game's text: the accuracy (each
 * player's against someone), the rating for points, and the largest
 * mistakes each with why the best option is better, box by box. Looked
 * up once the page's own review shows; a backend that cannot says why in
 * one line.
 */
function showGameCoach(r) {
  const box = $("#review-coach");
  box.hidden = true;
  delete box.dataset.review;
  showCurve($("#review-coach-summary"), null);
  const name = variant(r.of) === null ? GAMES[r.of.name].coach : undefined;
  if ((r.two && !GAMES[r.of.name].coachAgainst) || name === undefined || !r.decisions.length) return;
  if (r.of.filledByHand) {
    // The backend replays a game's text from the start, which such a game's text does not hold.
    $("#review-coach-summary").textContent = "No rating or reasons: the sheet was filled in by hand, and the coach replays a game from its start.";
    $("#review-coach-mistakes").replaceChildren();
    box.hidden = false;
    return;
  }
  const text = gameText(name, r.decisions, r.two, r.two ? null : r.target);
  const parts = { summary: $("#review-coach-summary"), mistakes: $("#review-coach-mistakes"), holder: box };
  ruleReview(name, text).then((c) => {
    if (r.source === "played" && r.of.drilled) keepReasons(r.of, c);
    if (shown !== r) return;
    showCoach(parts, c, coachOption);
    box.hidden = false;
  }, (e) => {
    if (shown !== r) return;
    parts.summary.textContent = `No rating or reasons: ${e.message}`;
    parts.mistakes.replaceChildren();
    box.hidden = false;
  });
}

/** An option of the backend's review in words. */
const coachOption = (a) => ("keep" in a ? (a.keep === "" ? "reroll all" : `keep ${a.keep}`) : `score ${a.category} for ${a.points}`);

/**
 * The moments the game turned for the players (not the computer): between
 * one decision of a player's and their next, how far their chance of
 * winning moved (the dice, and the other player's turn between); the
 * largest `count` by size.
 */
function swings(r, count = 3) {
  const found = [];
  for (const seat of [0, 1]) {
    if (seat === r.computerSeat) continue;
    const mine = r.decisions.map((d, i) => ({ d, i })).filter(({ d }) => d.seat === seat);
    for (let k = 0; k + 1 < mine.length; k++) {
      const [{ d, i }, { d: next }] = [mine[k], mine[k + 1]];
      const chosen = d.options[d.chosen].action;
      const what = "keep" in chosen ? `the throw after keeping ${chosen.keep || "nothing"}: ${next.dice}`
        : `${r.players[1 - seat]}'s turn, then the roll ${next.dice}`;
      found.push({ seat, at: i + 1, by: next.options[0].p - d.options[d.chosen].p, text: `after decision ${i + 1} (${actionText(chosen)}), ${what}` });
    }
  }
  return found.sort((a, b) => Math.abs(b.by) - Math.abs(a.by)).slice(0, count);
}

/** Where the player's larger mistakes are kept for drills (the browser's storage, as the games are), newest first. */
const DRILLS = "dice-tables:drills";
/** How many drills are kept at most, of all games. */
const MOST_DRILLS = 60;
/** How many of a game's mistakes become drills: its largest. */
const DRILLS_A_GAME = 3;

const storedDrills = () => storedList(DRILLS);
const storeDrills = (list) => storeList(DRILLS, list, MOST_DRILLS);

/**
 * A game played on the page, once over: its largest mistakes of the
 * player's (not the computer's) kept as drills, once, each with its place
 * in the game (`played`, the game's mark; `at`, the decision's index) for
 * the coach's reason once its review arrives.
 */
function keepDrills(g) {
  if (g.phase !== "over" || g.drilled) return;
  g.drilled = Date.now();
  save();
  const mistakes = (g.decisions ?? []).map((d, at) => ({ d, at })).filter(({ d }) => d.cost > 0 && d.q && d.seat !== g.computerSeat)
    .sort((a, b) => b.d.cost - a.d.cost).slice(0, DRILLS_A_GAME);
  const drills = mistakes.map(({ d, at }) => ({ name: g.name, variant: variant(g), reads: reads(g), q: d.q, dice: d.dice, rerolls: d.rerolls,
    chosen: d.options[d.chosen].action, cost: d.cost, played: g.drilled, at }));
  storeDrills([...drills, ...storedDrills()]);
}

/**
 * The coach's review `c` of game `g` played on the page (one decision a
 * line, in the game's order): each of its drills gets its decision's
 * reason, where the coach gives one (the same dice and rerolls).
 */
function keepReasons(g, c) {
  const list = storedDrills();
  const mine = list.filter((d) => d.played === g.drilled && d.reason === undefined);
  for (const d of mine) {
    const x = c.decisions[d.at];
    d.reason = x && x.dice === d.dice && x.rerolls === d.rerolls ? (x.reason?.text ?? null) : null;
  }
  if (mine.length) storeDrills(list);
}

/** The drill under way: its index among the stored ones, and its options once looked up. */
let drilling = null;
const sameAction = (a, b) => (a.keep ?? null) === (b.keep ?? null) && (a.category ?? null) === (b.category ?? null);
/** The situation of drill `d` in words: the sheet's open boxes, the scores that matter, the dice. */
function situation(d) {
  const open = GAMES[d.name].categories.filter((c, i) => (d.q.mask >> i) & 1);
  const upper = d.q.upper === undefined ? "" : `, upper total ${d.q.upper}`;
  const score = d.q.need !== undefined ? `, ${d.q.need} still needed` : d.q.me !== undefined ? `, you ${d.q.me} to ${d.q.opp} (the upper bonus apart)` : "";
  const left = d.rerolls === 1 ? "1 reroll" : `${d.rerolls} rerolls`;
  return `${d.dice} with ${left} left. Open: ${open.join(", ")}${upper}${score}.`;
}

/** The drills of the page's game: a button to start one, then its situation and options, then the answer. */
export function renderDrills() {
  const count = storedDrills().filter((d) => d.name === game.name).length;
  let box = $("#drills");
  if (!box) {
    box = document.createElement("div");
    box.id = "drills";
    box.innerHTML = '<p><button id="drill-start" type="button"></button></p><div id="drill" hidden><p id="drill-situation"></p><p id="drill-options"></p><p id="drill-answer"></p></div>';
    $("#review").append(box);
    $("#drill-start").addEventListener("click", () => startDrill().catch((e) => { $("#drill-answer").textContent = e.message; }));
  }
  box.hidden = count === 0;
  box.dataset.count = String(count);
  $("#drill-start").textContent = `Practise your ${GAMES[game.name].title} mistakes (${count} kept)`;
}

/** The page's game's newest drill: its situation and its options in a fixed order (by their words), none marked. */
async function startDrill() {
  const found = storedDrills().map((d, i) => ({ d, i })).find(({ d }) => d.name === game.name);
  if (!found) return;
  const { d } = found;
  const table = await tableFor(d.name, d.variant, d.reads);
  const answer = await table.lookup(d.name, d.q);
  drilling = { ...found, options: answer.options };
  $("#drill").hidden = false;
  $("#drill").dataset.query = JSON.stringify(d.q);
  $("#drill-situation").textContent = situation(d);
  $("#drill-answer").textContent = "";
  delete $("#drill-answer").dataset.cost;
  offerDrill($("#drill-options"), answer.options, (o) => actionText(o.action), (o) => ({ action: JSON.stringify(o.action) }), answerDrill);
}

/** The option `o` taken in the drill: the answer and what it costs; a drill answered best is done, another waits its turn again. */
function answerDrill(o) {
  if (!drilling) return;
  const { d, i, options } = drilling;
  drilling = null;
  const best = options[0];
  const cost = value(best) - value(o);
  const scale = d.reads === "points" ? (c) => `${c.toFixed(4)} points` : (c) => percent(c, 3);
  const why = d.reason ? `; why, in each box's expected points (the best less yours): ${d.reason}` : "";
  const then = sameAction(o.action, d.chosen) ? `as in your game${why}` : `in your game: ${actionText(d.chosen)}, which gave away ${scale(d.cost)}${why}`;
  $("#drill-answer").dataset.cost = String(cost);
  $("#drill-answer").textContent = cost === 0
    ? `Right: ${actionText(o.action)} is the best (${then}).`
    : `${actionText(o.action)} gives away ${scale(cost)}; the best is ${actionText(best.action)} (${then}).`;
  $("#drill-options").replaceChildren();
  const list = storedDrills();
  const [drill] = list.splice(i, 1);
  storeDrills(cost === 0 ? list : [...list, drill]);
  renderDrills();
}

/** Shows `review`, or the game on the page once it is over; returns what it shows. */
export function renderReview(review) {
  // Loaded after a render that asked for it: the page may have moved on since.
  if (game.phase === "over" && review?.source !== "pasted") review = { ...reviewOf(game, game.decisions), source: "played", open: 0 };
  keepDrills(game);
  renderDrills();
  $("#review-result").hidden = review === null;
  $("#resume").hidden = review?.source !== "pasted" || !review.resumable;
  if (game.phase === "over" && !$("#game-text").value) {
    $("#game-text").value = gameText(game.name, game.decisions, game.other !== null, game.other ? null : game.target);
  }
  if (review === null) return review;
  const r = review;
  // Against the computer, the player's decisions; two at a table, both players'.
  const decisions = r.decisions.map((d, i) => ({ ...d, at: i + 1 })).filter((d) => !r.two || d.seat !== r.computerSeat);
  const lost = decisions.reduce((s, d) => s + d.cost, 0);
  const mistakes = decisions.filter((d) => d.cost > 0).length;
  const unfinished = r.open ? ` (${r.open} boxes still open)` : "";
  const whose = r.two && r.computerSeat >= 0 ? " of yours" : "";
  const reached = r.total >= r.target ? "reached" : "short of";
  $("#review-summary").textContent = r.two
    ? `${decisions.length} decisions${whose}, ${mistakes} below the best; ${percent(lost, 3)} chance of winning given away in all. ${r.result}${unfinished}.`
    : r.target != null
      ? `${decisions.length} decisions, ${mistakes} below the best; ${percent(lost, 3)} chance of reaching ${r.target} given away in all. Score ${r.total}${unfinished}${r.open ? "" : `: ${reached} ${r.target}`}.`
      : `${decisions.length} decisions, ${mistakes} below the best; ${lost.toFixed(4)} points lost to optimal play in expectation. Score ${r.total}${unfinished}.`;
  $("#review-summary").dataset.lost = String(lost);
  $("#review-summary").dataset.source = r.source;
  showAccuracy(r, lost);
  showGameCoach(r);
  const who = (d) => (r.two && r.computerSeat < 0 ? ` (${r.players[d.seat]})` : "");
  $("#review-table tbody").replaceChildren(...decisions.map((d) => {
    const tr = document.createElement("tr");
    tr.dataset.cost = String(d.cost);
    tr.dataset.query = JSON.stringify({ dice: d.dice, rerolls: d.rerolls });
    if (r.two) tr.dataset.seat = String(d.seat);
    if (d.cost > 0) tr.classList.add("chosen");
    tr.append(cell(`${d.at}${who(d)}`), cell(`${d.dice} (${d.rerolls} left)`), cell(actionText(d.options[d.chosen].action)),
      cell(actionText(d.options[0].action)), cell(r.two || r.target != null ? percent(d.cost, 3) : d.cost.toFixed(4), "num"));
    return tr;
  }));
  const turns = r.two ? swings(r) : [];
  $("#review-swings").hidden = !turns.length;
  $("#review-swings").replaceChildren(...turns.map((s) => {
    const li = document.createElement("li");
    li.dataset.swing = String(s.by);
    li.dataset.at = String(s.at);
    li.textContent = `${r.computerSeat >= 0 ? "" : `${title(r.players[s.seat])}: `}${s.by >= 0 ? "+" : "−"}${percent(Math.abs(s.by))} ${s.text}`;
    return li;
  }));
  return review;
}
