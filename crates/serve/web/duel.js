// Two-player 10000 against the table's player, both playing to win: the
// chance of winning before every decision, and the table player's choices
// shown as it makes them. Lookups as `reader lookup duel ... --json`.
import { $, cell, die, percent, sinceTap, tableFor } from "./page.js";

const GOAL = 10000;
/** The table of each rules preset. */
export const DUEL_TABLES = { seed: "duel", cardgames: "duel-cardgames" };

let duel = null;
let advised = 0;

export function newDuel(rules, youFirst) {
  duel = {
    rules, totals: { you: 0, table: 0 }, mover: youFirst ? "you" : "table",
    score: 0, remaining: 6, dice: "", phase: "throw", // throw | keep | over
    answer: null, error: null, log: [], source: null,
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

function endTurn() {
  duel.mover = other(duel.mover);
  duel.score = 0;
  duel.remaining = 6;
  duel.dice = "";
  duel.phase = "throw";
  return step();
}

function bank() {
  const who = duel.mover;
  duel.totals[who] += duel.score;
  log(`${who === "you" ? "You bank" : "The table banks"} ${duel.score}: ${duel.totals[who]}`);
  if (duel.totals[who] >= GOAL) {
    duel.phase = "over";
    duel.answer = null;
    log(who === "you" ? "You win." : "The table wins.");
    return render();
  }
  return endTurn();
}

function throwDice(given) {
  duel.dice = given ?? Array.from({ length: duel.remaining }, die).sort().join("");
  duel.phase = "keep";
  return step().then(() => {
    if (duel.answer?.bust) {
      log(`${duel.mover === "you" ? "You" : "The table"} threw ${duel.dice}: bust, ${duel.score} lost`);
      return endTurn();
    }
  });
}

function keep(index) {
  const o = duel.answer.options[index];
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
}

export function wire() {
  $("#duel-new").addEventListener("click", () => newDuel($("#duel-rules").value, $("#duel-first").value === "you"));
  $("#duel-throw").addEventListener("click", () => throwDice());
  $("#duel-bank").addEventListener("click", () => bank());
}
