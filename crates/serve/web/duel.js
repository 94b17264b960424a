// Two-player 10000 against the table's player, both playing to win: the
// chance of winning before every decision, and the table player's choices
// shown as it makes them. Lookups as `reader lookup duel ... --json`. The
// game is written as `reader review duel` reads it (`1: 112346 keep 1
// throw`, `2: 2346 bust`, player 1 whoever threw first) and, once over,
// reviewed by the backend as `reader review duel FILE --json` reviews it:
// each player's luck, losses and accuracy, and the largest mistakes.
import { $, cell, die, percent, sinceTap, tableFor } from "./page.js";

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

export function wire() {
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
