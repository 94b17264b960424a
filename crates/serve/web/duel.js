// Two-player 10000 against the table's player, both playing to win: the
// chance of winning before every decision, and the table player's choices
// shown as it makes them. Lookups as `reader lookup duel ... --json`. The
// game is written as `reader review duel` reads it (`1: 112346 keep 1
// throw`, `2: 2346 bust`, player 1 whoever threw first) and, once over,
// reviewed by the backend as `reader review duel FILE --json` reviews it:
// each player's luck, losses and accuracy, and the largest mistakes. Your
// own largest mistakes are kept in the browser as drills and played back.
import { $, cell, die, offerDrill, percent, sinceTap, storedList, storeList, tableFor } from "./page.js";
import { showCurve } from "./coach.js";

const GOAL = 10000;
/** The table of each rules preset. */
export const DUEL_TABLES = { seed: "duel", cardgames: "duel-cardgames" };

let duel = null;
let advised = 0;
/** A game's text pasted below the duel, and its review or why there is none. */
let pasted = null;

export function newDuel(rules, youFirst) {
  pasted = null;
  duel = {
    rules, totals: { you: 0, table: 0 }, mover: youFirst ? "you" : "table",
    score: 0, remaining: 6, dice: "", phase: "throw", // throw | keep | over
    answer: null, error: null, log: [], source: null,
    // The game's text: one line a throw; a keep's line is written once
    // the player banks or throws on (`pending` until then).
    first: youFirst ? "you" : "table", lines: [], pending: null, review: null, reviewError: null,
    // Each line's banked totals, the thrower's first (for the drills).
    totalsAt: [],
  };
  return step();
}

const other = (who) => (who === "you" ? "table" : "you");
/** The query for the player to move: its own total first. */
function query(extra) {
  const q = { me: duel.totals[duel.mover], opp: duel.totals[other(duel.mover)], ...extra };
  if (duel.rules === "cardgames") q.rules = "cardgames";
  return q;
}

async function ask(q) {
  const table = await tableFor(DUEL_TABLES[duel.rules]);
  return { answer: await table.lookup("duel", q), source: table.source };
}

/** The answer for the moment: before a throw, throw or bank; after one, the keeps. */
async function step() {
  duel.answer = null;
  duel.error = null;
  render();
  const at = duel;
  try {
    const q = duel.phase === "throw" ? query({ remaining: duel.remaining, score: duel.score }) : query({ dice: duel.dice, score: duel.score });
    const { answer, source } = await ask(q);
    if (at !== duel) return;
    duel.source = source;
    duel.query = q;
    duel.answer = answer;
    advised += 1;
  } catch (e) {
    duel.error = e.message;
  }
  render();
  $("#duel-state").dataset.ms = sinceTap();
  if (duel.mover === "table" && duel.answer && duel.phase !== "over") setTimeout(tablePlays, 0);
}

function log(text) {
  duel.log.unshift(text);
}

/** A throw's line of the game's text, numbered by its player (1: whoever threw first). */
function write(line) {
  duel.lines.push(`${duel.mover === duel.first ? 1 : 2}: ${line}`);
  duel.totalsAt.push([duel.totals[duel.mover], duel.totals[other(duel.mover)]]);
}

/** The kept dice's line, now that the player banks or throws on (`then`). */
function writeKept(then) {
  if (duel.pending) write(`${duel.pending.dice} keep ${duel.pending.keep} ${then}`);
  duel.pending = null;
}

/** The game's text, as `reader review` reads it. */
export const gameText = (d = duel) => `game: ${DUEL_TABLES[d.rules]}\nplayers: 2\n${d.lines.join("\n")}\n`;

/** The finished game reviewed by the backend (`reader review duel FILE --json`), then shown. */
async function coach() {
  const at = duel;
  // The game's text, ready to copy or to review again.
  $("#duel-game-text").value = gameText(at);
  try {
    const { ruleReview } = await import("./rules-backend.js");
    const r = await ruleReview(DUEL_TABLES[at.rules], gameText(at));
    if (at === duel) duel.review = r;
    keepDrills(at, r);
  } catch (e) {
    if (at === duel) duel.reviewError = e.message;
  }
  render();
}

function endTurn() {
  duel.mover = other(duel.mover);
  duel.score = 0;
  duel.remaining = 6;
  duel.dice = "";
  duel.phase = "throw";
  return step();
}

function bank() {
  writeKept("bank");
  const who = duel.mover;
  duel.totals[who] += duel.score;
  log(`${who === "you" ? "You bank" : "The table banks"} ${duel.score}: ${duel.totals[who]}`);
  if (duel.totals[who] >= GOAL) {
    duel.phase = "over";
    duel.answer = null;
    log(who === "you" ? "You win." : "The table wins.");
    render();
    return coach();
  }
  return endTurn();
}

function throwDice(given) {
  writeKept("throw");
  duel.dice = given ?? Array.from({ length: duel.remaining }, die).sort().join("");
  duel.phase = "keep";
  return step().then(() => {
    if (duel.answer?.bust) {
      write(`${duel.dice} bust`);
      log(`${duel.mover === "you" ? "You" : "The table"} threw ${duel.dice}: bust, ${duel.score} lost`);
      return endTurn();
    }
  });
}

function keep(index) {
  const o = duel.answer.options[index];
  duel.pending = { dice: duel.dice, keep: o.keep };
  duel.score += o.points;
  duel.remaining = o.dice_left;
  log(`${duel.mover === "you" ? "You" : "The table"} threw ${duel.dice}, kept ${o.keep} (${o.points}): turn ${duel.score}`);
  duel.phase = "throw";
  return step();
}

/** The table's player: the best action every time. */
async function tablePlays() {
  if (duel.mover !== "table" || !duel.answer) return;
  if (duel.phase === "throw") return duel.answer.best === "bank" ? bank() : throwDice();
  if (duel.phase === "keep" && !duel.answer.bust) return keep(0);
}

export function render() {
  if (!duel) return;
  const state = $("#duel-state");
  state.dataset.phase = duel.phase;
  state.dataset.mover = duel.mover;
  state.dataset.query = duel.answer ? JSON.stringify(duel.query) : "";
  state.dataset.advised = String(advised);
  state.dataset.p = duel.answer && duel.answer.p !== undefined ? String(duel.answer.p) : "";
  $("#duel-totals").textContent = `You ${duel.totals.you}, the table ${duel.totals.table} (goal ${GOAL}, ${duel.rules} rules)`;
  const a = duel.answer;
  const yours = duel.mover === "you";
  let text = duel.error ?? "";
  if (!duel.error && a) {
    const mine = yours ? a.p : 1 - a.p;
    if (duel.phase === "throw") {
      const bankText = a.bank === null ? "banking not allowed yet" : `bank ${duel.score}: ${percent(yours ? a.bank : 1 - a.bank)}`;
      text = `Your chance of winning ${percent(mine)}. Throw ${duel.remaining}: ${percent(yours ? a.throw : 1 - a.throw)}; ${bankText}. Best: ${a.best}.`;
    } else if (a.bust) text = `${duel.dice}: bust.`;
    else text = `Threw ${duel.dice} (turn ${duel.score}): your chance of winning ${percent(mine)}.`;
  }
  if (duel.phase === "over") text = duel.totals.you >= GOAL ? "You win." : "The table wins.";
  $("#duel-advice").textContent = text;
  $("#duel-advice").classList.toggle("error", duel.error !== null);
  $("#duel-throw").disabled = !(yours && a && duel.phase === "throw");
  $("#duel-throw").textContent = `Throw ${duel.remaining}`;
  $("#duel-bank").disabled = !(yours && a && duel.phase === "throw" && a.bank !== null);
  const options = yours && a && duel.phase === "keep" && !a.bust ? a.options : [];
  $("#duel-options").hidden = options.length === 0;
  $("#duel-options tbody").replaceChildren(...options.map((o, i) => {
    const tr = document.createElement("tr");
    tr.dataset.keep = o.keep;
    tr.dataset.p = String(o.p);
    if (i === 0) tr.classList.add("best");
    tr.append(cell(o.keep), cell(String(o.points), "num"), cell(`${o.then} (${o.dice_left} left)`), cell(percent(o.p), "num"));
    tr.addEventListener("click", () => keep(i));
    return tr;
  }));
  $("#duel-log").replaceChildren(...duel.log.slice(0, 12).map((l) => Object.assign(document.createElement("li"), { textContent: l })));
  $("#duel-source").textContent = duel.source ? `Answered from ${duel.source}.` : "";
  renderReview();
}

const percentOf = (x, sign = false) => `${sign ? (x >= 0 ? "+" : "−") : ""}${(100 * Math.abs(x)).toFixed(2)} %`;

/**
 * The coach's review of the finished game, or of a game pasted below:
 * each side's figures, then the largest mistakes.
 */
function renderReview() {
  const holder = $("#duel-review");
  const over = duel.phase === "over";
  // A pasted game reviewed is shown; one refused leaves the game played here's.
  const shown = pasted?.review ? pasted : null;
  holder.hidden = !over && !shown;
  holder.dataset.text = shown ? shown.text : over ? gameText() : "";
  const r = shown ? shown.review : duel.review;
  holder.dataset.review = r ? JSON.stringify(r) : "";
  $("#duel-review-error").textContent = pasted?.error ?? "";
  // A pasted game's players are its numbers; the game played here's, you and the table.
  const name = (player) => (shown ? `player ${player}` : (player === 1) === (duel.first === "you") ? "you" : "the table");
  const summary = $("#duel-coach");
  summary.classList.toggle("error", !shown && duel.reviewError !== null);
  if (holder.hidden) return;
  if (!r) {
    summary.textContent = duel.reviewError ?? "The coach is reviewing the game…";
    showCurve(summary, null);
    $("#duel-mistakes").replaceChildren();
    return;
  }
  const each = r.players.map((p) => {
    const who = name(p.player);
    const rating = p.rating === null ? "no rating (no reference players' figures for this table)" : `rating ${Math.round(p.rating)} (Elo scale, random play 0)`;
    const whose = shown ? `Player ${p.player}` : `${who[0].toUpperCase()}${who.slice(1)} (player ${p.player})`;
    return `${whose}: the dice brought ${percentOf(p.luck, true)} chance of winning; the keeps gave away ${percentOf(Math.max(0, p.loss))}. Accuracy ${p.accuracy.toFixed(1)} of 100, ${rating}.`;
  });
  summary.textContent = `The coach: player 1's chance of winning at the start ${percentOf(r.start)}. ${each.join(" ")}`;
  showCurve(summary, r);
  $("#duel-mistakes").replaceChildren(...r.largest_mistakes.map((line) => {
    const d = r.decisions.find((x) => x.line === line);
    const li = document.createElement("li");
    Object.assign(li.dataset, { line: String(line), loss: String(d.loss), player: String(d.player) });
    const option = (o) => `keep ${o.keep} (${o.points}) and ${o.then}`;
    li.textContent = `Line ${line} (${name(d.player)}): threw ${d.dice} at turn score ${d.score}: ${option(d.chosen)} gave away ${percentOf(d.loss)} chance (best: ${option(d.best)}).`;
    // Why: what the dice kept gave away, and what banking or throwing on after them did.
    if (d.reason) li.append(document.createElement("br"), `Why: ${d.reason.text}.`);
    li.dataset.reason = d.reason?.text ?? "";
    return li;
  }));
}

/** Where your larger 10000 mistakes are kept for drills (the browser's storage), newest first. */
const DRILLS = "dice-tables:tenk-drills";
/** How many drills are kept at most. */
const MOST_DRILLS = 60;
/** How many of a game's mistakes become drills: its largest. */
const DRILLS_A_GAME = 3;
/** The line number in the game's text of `duel.lines[i]`: after `game:` and `players: 2`. */
const HEADER_LINES = 2;

/** A game played here, reviewed: your largest mistakes (the review's, not the table's) kept as drills, once. */
function keepDrills(d, r) {
  if (d.drilled) return;
  d.drilled = true;
  const yours = d.first === "you" ? 1 : 2;
  const mistakes = r.largest_mistakes.map((line) => r.decisions.find((x) => x.line === line))
    .filter((x) => x.player === yours).slice(0, DRILLS_A_GAME);
  const drills = mistakes.map((x) => {
    const [me, opp] = d.totalsAt[x.line - HEADER_LINES - 1];
    return { rules: d.rules, me, opp, score: x.score, dice: x.dice, chosen: { keep: x.chosen.keep, then: x.chosen.then }, loss: x.loss, reason: x.reason?.text ?? null };
  });
  storeList(DRILLS, [...drills, ...storedList(DRILLS)], MOST_DRILLS);
  renderDrills();
}

/** The drill under way: its index among the stored ones and its options. */
let drilling = null;
const pairText = (o) => `keep ${o.keep} (${o.points}) and ${o.then === "bank" ? "bank" : `throw ${o.dice_left}`}`;

/** The drills kept: a button to start one, with how many there are. */
function renderDrills() {
  const count = storedList(DRILLS).length;
  $("#duel-drills").hidden = count === 0;
  $("#duel-drills").dataset.count = String(count);
  $("#duel-drill-start").textContent = `Practise your 10000 mistakes (${count} kept)`;
}

/**
 * The newest drill: the situation, then every keep with what may follow
 * it (banking where allowed, throwing on), each valued as the coach values
 * it, in a fixed order (by their words), none marked.
 */
async function startDrill() {
  const list = storedList(DRILLS);
  if (!list.length) return;
  const d = list[0];
  const table = await tableFor(DUEL_TABLES[d.rules]);
  const rules = d.rules === "cardgames" ? { rules: "cardgames" } : {};
  const q = { me: d.me, opp: d.opp, dice: d.dice, score: d.score, ...rules };
  const pairs = [];
  for (const o of (await table.lookup("duel", q)).options) {
    // Dice that score two ways score the most (listed first), as the coach reads them.
    if (pairs.some((x) => x.keep === o.keep)) continue;
    const after = await table.lookup("duel", { me: d.me, opp: d.opp, remaining: o.dice_left, score: d.score + o.points, ...rules });
    if (after.bank !== null) pairs.push({ ...o, then: "bank", p: after.bank });
    pairs.push({ ...o, then: "throw", p: after.throw });
  }
  drilling = { index: 0, d, pairs };
  $("#duel-drill").hidden = false;
  $("#duel-drill").dataset.query = JSON.stringify(q);
  const bank = d.score + (d.me === 0 && d.rules === "seed" ? " (nothing banked yet: 1000 to enter)" : "");
  $("#duel-drill-situation").textContent = `You ${d.me}, the other player ${d.opp} (goal ${GOAL}, ${d.rules} rules); turn score ${bank}; you threw ${d.dice}.`;
  $("#duel-drill-answer").textContent = "";
  delete $("#duel-drill-answer").dataset.cost;
  offerDrill($("#duel-drill-options"), pairs, pairText, (o) => ({ pair: JSON.stringify({ keep: o.keep, then: o.then }) }), answerDrill);
}

/** The pair `o` taken in the drill: the answer and what it costs; a drill answered best is done, another waits its turn again. */
function answerDrill(o) {
  if (!drilling) return;
  const { index, d, pairs } = drilling;
  drilling = null;
  const best = pairs.reduce((b, x) => (x.p > b.p ? x : b));
  const cost = best.p - o.p;
  const own = pairs.find((x) => x.keep === d.chosen.keep && x.then === d.chosen.then);
  const why = d.reason ? `; why: ${d.reason}` : "";
  const then = o === own ? `as in your game${why}` : `in your game: ${own ? pairText(own) : `keep ${d.chosen.keep} and ${d.chosen.then}`}, which gave away ${percent(d.loss, 3)}${why}`;
  $("#duel-drill-answer").dataset.cost = String(cost);
  $("#duel-drill-answer").textContent = cost === 0
    ? `Right: ${pairText(o)} is the best (${then}).`
    : `${pairText(o)} gives away ${percent(cost, 3)} chance of winning; the best is ${pairText(best)} (${then}).`;
  $("#duel-drill-options").replaceChildren();
  const list = storedList(DRILLS);
  const [drill] = list.splice(index, 1);
  storeList(DRILLS, cost === 0 ? list : [...list, drill], MOST_DRILLS);
  renderDrills();
}

export function wire() {
  $("#duel-drill-start").addEventListener("click", () => startDrill().catch((e) => { $("#duel-drill-answer").textContent = e.message; }));
  renderDrills();
  $("#duel-new").addEventListener("click", () => newDuel($("#duel-rules").value, $("#duel-first").value === "you"));
  $("#duel-throw").addEventListener("click", () => throwDice());
  $("#duel-bank").addEventListener("click", () => bank());
  // A game's text pasted (or the one written here): reviewed as `reader
  // review` reviews it, under the rules its header names, else the rules chosen.
  $("#duel-review-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = $("#duel-game-text").value;
    const named = /^\s*game\s*:\s*(\S+)/im.exec(text)?.[1] ?? DUEL_TABLES[$("#duel-rules").value];
    try {
      const { ruleReview } = await import("./rules-backend.js");
      pasted = { text, review: await ruleReview(named, text), error: null };
    } catch (err) {
      pasted = { text, review: null, error: err.message };
    }
    renderReview();
  });
}
