// What the browser tests share: chromium started headless on a phone-sized
// screen, and whole games and advisor questions played on the page (the
// static site's or `reader serve`'s: the same page), every answer shown
// checked against `reader lookup ... --json`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { strict as assert } from "node:assert";
import { chromium } from "playwright-core";
import { assertSameReview } from "../../crates/npm/test/same_review.mjs";

export const reader = process.env.READER || "target/release/reader";
export const seed = Number(process.argv[2] || 2026);
export const shots = "target/browser";
// Per game (Maxi Yatzy per rule set): the upper bonus's points and the
// upper total that earns it, the boxes, the dice.
const UPPER_BONUS = { yahtzee: [35, 63], yatzy: [50, 63], yazy: [0, 63], "maxi-yatzy": { finnish: [50, 75], swedish: [100, 84] } };
const BOXES = { yahtzee: 13, yatzy: 15, yazy: 11, "maxi-yatzy": 20 };
const DICE = { yahtzee: 5, yatzy: 5, yazy: 5, "maxi-yatzy": 6 };

/** How long each later advice took, as the page measures it: from the tap to the advice in the page. */
export const adviceMs = [];
export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * How long a wait for the page may last before the page counts as stuck:
 * not a timing (the figures are measured and reported apart). CI runs the
 * page beside two fuzzers on two cores, where Maxi Yatzy's first advice
 * (its 90 MB table fetched and checked) took more than ten seconds.
 */
const STUCK_MS = 120_000;

/**
 * The costs the review lists of the game just played, once its code
 * (review.js, loaded when the game ends) has shown it.
 */
async function playedReview(page) {
  await page.waitForFunction(() => document.querySelector("#review-summary").dataset.source === "played", null, { timeout: STUCK_MS });
  return page.$$eval("#review-table tbody tr", (rows) => rows.map((r) => Number(r.dataset.cost)));
}

/** Debian's chromium, headless. */
export function launch() {
  mkdirSync(shots, { recursive: true });
  return chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
}

/** Nothing on the page is wider than the screen. */
export async function fitsScreen(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.ok(!overflow, "nothing overflows the screen's width");
}

/**
 * The command line's answer to the query a page shows (its data-query):
 * `reader lookup GAME --KEY VALUE ... --json` from the tables in `dir`.
 */
export function cli(dir, game, q) {
  const args = ["lookup", game];
  for (const [key, value] of Object.entries(q)) args.push(`--${key}`, ...(value === true ? [] : [String(value)]));
  args.push("--json", "--tables", dir);
  return JSON.parse(execFileSync(reader, args, { encoding: "utf8" }));
}

/**
 * The sheet game's option rows on the page, each (action, expected value),
 * asserted equal to `answer`'s (the command line's); `what` names the case.
 */
async function optionsAre(page, answer, what) {
  const shown = await page.$$eval("#options tbody tr", (rows) => rows.map((r) => [r.dataset.action, Number(r.dataset.ev)]));
  assert.deepEqual(shown, answer.options.map((o) => [JSON.stringify(o.action), o.ev]), what);
  return shown;
}

/** Waits until the page shows an answer newer than `after`. */
export async function nextAdvice(page, after) {
  await page
    .waitForFunction((n) => {
      const s = document.querySelector("#state").dataset;
      return (s.phase === "decide" && Number(s.advised) > n) || s.phase === "over" || s.phase === "roll";
    }, after, { timeout: STUCK_MS })
    .catch(async (e) => {
      throw new Error(`no advice: the page says "${await page.textContent("#advice")}" (${e.message})`);
    });
}

/** Waits for the advice after `advised` and, when one came, keeps how long the page took to give it. */
async function timedAdvice(page, advised, game) {
  await nextAdvice(page, advised);
  const s = await page.$eval("#state", (e) => ({ ...e.dataset }));
  if (Number(s.advised) > advised) adviceMs.push([Number(s.ms), `${game} ${s.query}`]);
}

/**
 * Plays a whole game of `game` (yahtzee under joker reading `joker`, yatzy,
 * yazy, or maxi-yatzy under rules `joker`) on the page at `base`, every
 * option row checked against the command line asking the tables in
 * `tablesOf(joker)`. `mistakes`: decision numbers (1-based)
 * where the first worse option is taken; `typed`: turns (1-based) whose roll
 * is typed in, as dice rolled at a table; `undoAt`: a decision taken,
 * undone, checked to be back, then taken again; `offlineAfterFirst`: the
 * network of `context` cut after the first advice.
 */
export async function play(page, base, tablesOf, game, joker, { mistakes = [], offlineAfterFirst = false, context, typed = {}, undoAt } = {}) {
  const variant = game === "maxi-yatzy" ? `rules=${joker}` : `joker=${joker}`;
  await page.goto(`${base}/?game=${game}&${variant}&new&seed=${seed}`);
  const state = page.locator("#state");
  let decisions = 0;
  let turns = 0;
  let jokerBoxes = null; // the boxes offered for a Yahtzee under the joker rules
  const costs = [];
  const mistaken = []; // the queries of the mistakes' states
  let coach = null; // the backend's review shown beside the page's (Yatzy's, Yahtzee's, yazy's, Maxi Yatzy's)
  for (;;) {
    const phase = await state.getAttribute("data-phase");
    if (phase === "over") break;
    if (phase === "roll") {
      const advised = Number(await state.getAttribute("data-advised"));
      turns += 1;
      if (typed[turns]) {
        await page.fill("#entered", typed[turns]);
        await page.click("#enter button");
      } else {
        await page.click("#roll");
      }
      await timedAdvice(page, advised, game);
      continue;
    }
    await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
    const q = JSON.parse(await state.getAttribute("data-query"));
    const answer = cli(tablesOf(joker), game, game === "yahtzee" && joker === "free" ? { ...q, joker } : q);
    const shown = await optionsAre(page, answer, `${game} ${JSON.stringify(q)}`);
    // Each option's final score is the points on the sheet (boxes and
    // Yahtzee bonuses, the upper bonus being among the points to come) plus
    // its points to come.
    const [onTop, onSheet] = await page.evaluate(() => [
      [...document.querySelectorAll("#options tbody tr")].map((r) => Number(r.dataset.final) - Number(r.dataset.ev)),
      [...document.querySelectorAll("#sheet td[data-points]")].reduce((s, c) => s + Number(c.dataset.points), 0) +
        Number(document.querySelector("#yahtzee-bonuses").textContent),
    ]);
    for (const d of onTop) assert.ok(Math.abs(d - onSheet) < 1e-9, `final score ${d} on top of the points to come, ${onSheet} on the sheet`);
    assert.match(await page.textContent("#advice"), /points still to come: a final score of /);
    const boxes = shown.map(([a]) => JSON.parse(a)).filter((a) => "category" in a).map((a) => a.category);
    // Scoring now is offered on the sheet whatever the rerolls left.
    const buttons = await page.$$eval("button[data-score]", (b) => b.map((x) => x.dataset.score));
    assert.ok(boxes.length > 0, `${game} ${JSON.stringify(q)}: no box offered`);
    assert.deepEqual([...buttons].sort(), [...boxes].sort(), `${game} ${JSON.stringify(q)}: the sheet's score buttons`);
    // Each open box shows what the dice shown would score there now: the option's points.
    const now = await page.$$eval("#sheet td[data-now]", (c) => c.map((x) => `${x.parentElement.dataset.category} ${x.dataset.now}`));
    const scoring = answer.options.filter((o) => "category" in o.action).map((o) => `${o.action.category} ${o.action.points}`);
    assert.deepEqual(now.sort(), scoring.sort(), `${game} ${JSON.stringify(q)}: the sheet's points now`);
    if (q.dice === "55555" && q["yahtzee-bonus"]) jokerBoxes = boxes;
    decisions += 1;
    // The network cut once the page has its code (the review's is fetched
    // after the first advice, outside the bytes counted before it).
    if (decisions === 1 && offlineAfterFirst) {
      await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/review.js")), null, { timeout: STUCK_MS });
      await context.setOffline(true);
    }
    if (decisions === 4 && !mistakes.length) await page.screenshot({ path: `${shots}/sheet-${game}-${joker}.png`, fullPage: true });
    if (decisions === undoAt) {
      // Take the advice, undo it: the same decision is back, options and all.
      const before = await page.$$eval("#options tbody tr", (rows) => rows.map((r) => r.dataset.action));
      const advisedBefore = Number(await state.getAttribute("data-advised"));
      await page.click(`#options tbody tr >> nth=0`);
      await page.waitForFunction((q) => document.querySelector("#state").dataset.query !== q, JSON.stringify(q));
      await page.click("#undo");
      await page.waitForFunction(
        ([query, n]) => {
          const s = document.querySelector("#state").dataset;
          return s.query === query && Number(s.advised) > n && document.querySelector("#advice").dataset.best !== "";
        },
        [JSON.stringify(q), advisedBefore],
      );
      assert.equal(await state.getAttribute("data-query"), JSON.stringify(q), "undo restores the state");
      assert.deepEqual(await page.$$eval("#options tbody tr", (rows) => rows.map((r) => r.dataset.action)), before);
    }
    const advised = Number(await state.getAttribute("data-advised"));
    let index = 0;
    if (mistakes.includes(decisions)) {
      index = answer.options.findIndex((o) => o.ev < answer.options[0].ev);
      assert.ok(index > 0, `decision ${decisions} has a worse option`);
      costs.push(answer.options[0].ev - answer.options[index].ev);
      mistaken.push(q);
    }
    const action = answer.options[index].action;
    if (index === 0 && "category" in action) {
      await page.click(`button[data-score="${action.category}"]`);
    } else if (index === 0) {
      // Tap the dice to keep, then reroll.
      const want = action.keep.split("");
      const dice = await page.$$eval("#state .die", (b) => b.map((x) => x.textContent));
      for (let i = 0; i < dice.length; i++) {
        const at = want.indexOf(dice[i]);
        if (at >= 0) {
          want.splice(at, 1);
          await page.click(`#state .die >> nth=${i}`);
        }
      }
      await page.click("#reroll");
    } else {
      await page.click(`#options tbody tr >> nth=${index}`);
    }
    await timedAdvice(page, advised, game);
  }
  // The total is the boxes and the bonuses.
  const boxes = await page.$$eval("#sheet td[data-points]", (c) => c.map((x) => Number(x.dataset.points)));
  const upper = boxes.slice(0, 6).reduce((s, p) => s + p, 0);
  const bonuses = Number(await page.textContent("#yahtzee-bonuses"));
  const [bonus, bonusAt] = game === "maxi-yatzy" ? UPPER_BONUS[game][joker] : UPPER_BONUS[game];
  const upperBonus = upper >= bonusAt ? bonus : 0;
  const total = Number(await page.getAttribute("#total", "data-total"));
  assert.equal(boxes.length, BOXES[game]);
  assert.equal(total, boxes.reduce((s, p) => s + p, 0) + upperBonus + bonuses, `${game} total`);
  // The review: every decision, with the costs of the mistakes only.
  const review = await playedReview(page);
  assert.equal(review.length, decisions);
  const listed = review.filter((c) => c > 0);
  assert.deepEqual(listed, costs, `${game}: the review's costs`);
  const lost = Number(await page.getAttribute("#review-summary", "data-lost"));
  assert.ok(Math.abs(lost - costs.reduce((s, c) => s + c, 0)) < 1e-9, `${game}: lost ${lost}`);
  // The accuracy, from the command line's value of the game at its start.
  const startQuery = { mask: "all", ...(game === "yazy" ? {} : { upper: 0 }), ...(game === "maxi-yatzy" ? { rules: joker } : {}),
    ...(game === "yahtzee" && joker === "free" ? { joker } : {}) };
  const start = cli(tablesOf(joker), game, startQuery).ev;
  await page.waitForFunction(() => document.querySelector("#review-accuracy").dataset.accuracy !== undefined, null, { timeout: STUCK_MS });
  const accuracy = Number(await page.getAttribute("#review-accuracy", "data-accuracy"));
  assert.equal(Number(await page.getAttribute("#review-accuracy", "data-start")), start, `${game}: the start's value`);
  assert.ok(Math.abs(accuracy - 100 * Math.exp((-4 * lost) / start)) < 1e-9, `${game}: accuracy ${accuracy}`);
  assert.equal(accuracy === 100, costs.length === 0, `${game}: accuracy ${accuracy} with ${costs.length} mistakes`);
  assert.match(await page.textContent("#review-accuracy"), new RegExp(`^Accuracy ${accuracy.toFixed(1).replace(".", "\\.")} of 100: `));
  if (mistakes.length) {
    // The game as the page writes it, pasted back: the same review.
    const text = await page.inputValue("#game-text");
    // A header naming the game, then a line a decision.
    assert.equal(text.split("\n")[0], `game: ${game}`);
    assert.equal(text.split("\n").length, decisions + 1);
    if (COACHED[game] === joker) coach = await coachedWherePartsAre(page, tablesOf(joker), game, text, review);
    await page.fill("#game-text", text);
    await page.click("#review-form button");
    await page.waitForFunction(() => document.querySelector("#review-summary").dataset.source === "pasted");
    const pasted = await page.$$eval("#review-table tbody tr", (rows) => rows.map((r) => Number(r.dataset.cost)));
    assert.deepEqual(pasted, review, "the pasted game's review");
    // A line that is not a decision is refused, naming the line.
    const sixes = "6".repeat(DICE[game]);
    await page.fill("#game-text", `${"123456".slice(0, DICE[game])} score ones\n${sixes} score nothing`);
    await page.click("#review-form button");
    await page.waitForFunction(() => document.querySelector("#review-error").textContent !== "");
    assert.equal(await page.textContent("#review-error"), `line 2 (${sixes} score nothing): nothing is not an open box`);
    // A header naming another game is refused, naming its line.
    const other = game === "yatzy" ? "yahtzee" : "yatzy";
    await page.fill("#game-text", `\ngame: ${other}\n${sixes} score chance`);
    await page.click("#review-form button");
    await page.waitForFunction((line) => document.querySelector("#review-error").textContent.startsWith(line), `line 2 (game: ${other})`, { timeout: STUCK_MS });
    assert.equal(await page.textContent("#review-error"),
      `line 2 (game: ${other}): the text is a game of ${other}, reviewed here as ${game}'s: open its tab, or write game: ${game}`);
  }
  await fitsScreen(page);
  await page.screenshot({ path: `${shots}/sheet-${game}-${joker}${mistakes.length ? "-mistakes" : ""}-review.png`, fullPage: true });
  return { decisions, total, bonuses, jokerBoxes, mistaken, coach };
}

/**
 * Plays a whole two-player 10000 game against the table's player, taking
 * the best action but at the first `mistakes` keeps that have a worse one
 * (the last row, more than 1e-6 worse), checked against the tables in
 * `dir`; then the coach's review of the game's text is `reader review`'s,
 * listing exactly those mistakes (the five largest), each yours.
 */
export async function playDuel(page, base, dir, rules, first, mistakes = 0) {
  await page.goto(`${base}/?game=duel&rules=${rules}&first=${first}&seed=${seed}`);
  const state = page.locator("#duel-state");
  const ready = async (after) => {
    await page.waitForFunction((n) => {
      const s = document.querySelector("#duel-state").dataset;
      return s.phase === "over" || (s.mover === "you" && s.query !== "" && Number(s.advised) > n);
    }, after, { timeout: STUCK_MS });
  };
  await ready(-1);
  let [decisions, made] = [0, 0];
  for (;;) {
    if ((await state.getAttribute("data-phase")) === "over") break;
    const q = JSON.parse(await state.getAttribute("data-query"));
    const answer = cli(dir, "duel", q);
    assert.equal(Number(await state.getAttribute("data-p")), answer.p, `duel ${JSON.stringify(q)}`);
    const advised = Number(await state.getAttribute("data-advised"));
    decisions += 1;
    if (q.remaining !== undefined) {
      await page.click(answer.best === "bank" ? "#duel-bank" : "#duel-throw");
    } else {
      const shown = await page.$$eval("#duel-options tbody tr", (rows) => rows.map((r) => [r.dataset.keep, Number(r.dataset.p)]));
      assert.deepEqual(shown, answer.options.map((o) => [o.keep, o.p]), `duel ${JSON.stringify(q)}`);
      const worse = made < mistakes && shown.length > 1 && shown[0][1] - shown.at(-1)[1] > 1e-6;
      made += worse ? 1 : 0;
      await page.click(`#duel-options tbody tr >> nth=${worse ? shown.length - 1 : 0}`);
    }
    await ready(advised);
    // The next advice straight after the tap (no table's turn between): its time.
    const s = await page.$eval("#duel-state", (e) => ({ ...e.dataset }));
    if (Number(s.advised) === advised + 1) adviceMs.push([Number(s.ms), `duel ${s.query}`]);
  }
  const totals = await page.textContent("#duel-totals");
  // The coach: the backend's review of the page's text is the command line's.
  await page.waitForFunction(() => document.querySelector("#duel-review").dataset.review !== "", null, { timeout: STUCK_MS });
  const text = await page.$eval("#duel-review", (r) => r.dataset.text);
  const table = rules === "cardgames" ? "duel-cardgames" : "duel";
  assert.ok(text.startsWith(`game: ${table}\nplayers: 2\n1: `), text);
  const file = join(process.env.TMPDIR || "/tmp", `dice-tables-duel-coach-${process.pid}.txt`);
  writeFileSync(file, text);
  const expected = JSON.parse(execFileSync(reader, ["review", table, file, "--json", "--tables", dir], { encoding: "utf8" }));
  rmSync(file);
  assertSameReview(JSON.parse(await page.$eval("#duel-review", (r) => r.dataset.review)), expected, `${table}: the page's coach is the command line's review`);
  await curveIs(page, "#duel-coach", expected, `${table}: the coach`);
  const yours = first === "you" ? 1 : 2;
  assert.equal(expected.largest_mistakes.length, Math.min(made, 5), `${table}: exactly the deliberate mistakes`);
  const listed = await page.$$eval("#duel-mistakes li", (items) => items.map((li) => [Number(li.dataset.line), Number(li.dataset.player)]));
  assert.deepEqual(listed, expected.largest_mistakes.map((line) => [line, yours]), `${table}: the mistakes listed, each yours`);
  // Each side rated from the reference players' games against the duel table's optimal player.
  assert.ok(expected.players.every((p) => p.rating > 0), `${table}: each player rated`);
  const rated = "Accuracy [\\d.]+ of 100, rating \\d+ \\(Elo scale, random play 0\\)\\.";
  assert.match(await page.textContent("#duel-coach"), new RegExp(`^The coach: player 1's chance of winning at the start [\\d.]+ %\\. (You|The table) \\(player 1\\): .*${rated} (You|The table) \\(player 2\\): .*${rated}$`));
  // The text is in the box below, and reviewed again from there, as pasted.
  assert.equal(await page.inputValue("#duel-game-text"), text);
  await page.$eval("#duel-review", (r) => { r.dataset.review = ""; });
  await page.click("#duel-review-form button");
  await page.waitForFunction(() => document.querySelector("#duel-review").dataset.review !== "", null, { timeout: STUCK_MS });
  assertSameReview(JSON.parse(await page.$eval("#duel-review", (r) => r.dataset.review)), expected, `${table}: the pasted game's review`);
  assert.match(await page.textContent("#duel-coach"), / Player 1: the dice brought /);
  // A line that breaks the rules: the command line's message.
  await page.fill("#duel-game-text", `game: ${table}\nplayers: 2\n1: 1123 keep 1 throw\n`);
  await page.click("#duel-review-form button");
  await page.waitForFunction(() => document.querySelector("#duel-review-error").textContent !== "", null, { timeout: STUCK_MS });
  assert.equal(await page.textContent("#duel-review-error"), "line 3 (1: 1123 keep 1 throw): 1123 is 4 dice: 6 are thrown (six open each turn)");
  const drilled = made ? await drillDuel(page, dir, expected, yours, rules) : null;
  await fitsScreen(page);
  await page.screenshot({ path: `${shots}/duel-${rules}.png`, fullPage: true });
  return { decisions, result: await page.textContent("#duel-advice"), totals, mistakes: made, accuracy: expected.players[yours - 1].accuracy, drilled };
}

/**
 * The drills of a duel just played with mistakes (`review`, the command
 * line's review of it; you player `yours`): your largest mistakes are
 * kept (no drills before), each drill a mistake's situation offering
 * every keep with banking (where allowed) and throwing on after it, each
 * valued by the command line's lookups. Answered first as in the game, it
 * costs what the review says that keep gave away, and waits again; then
 * answered best, it is done; after a reload the rest are still kept.
 */
async function drillDuel(page, dir, review, yours, rules) {
  const mistakes = review.largest_mistakes.map((line) => review.decisions.find((d) => d.line === line)).filter((d) => d.player === yours);
  const kept = Math.min(mistakes.length, 3);
  const count = () => page.getAttribute("#duel-drills", "data-count").then(Number);
  await page.waitForFunction((n) => document.querySelector("#duel-drills").dataset.count === String(n), kept, { timeout: STUCK_MS });
  const answered = [];
  for (const pick of ["as in the game", "best"]) {
    await page.click("#duel-drill-start");
    await page.waitForFunction(() => document.querySelectorAll("#duel-drill-options button").length > 0, null, { timeout: STUCK_MS });
    const q = JSON.parse(await page.getAttribute("#duel-drill", "data-query"));
    const mistake = mistakes.find((d) => d.dice === q.dice && d.score === q.score);
    assert.ok(mistake, `10000 drill ${JSON.stringify(q)}: a mistake's throw`);
    assert.equal(q.rules ?? "seed", rules, "10000 drill: the game's rules");
    const pairs = [];
    for (const o of cli(dir, "duel", q).options) {
      if (pairs.some((x) => x.keep === o.keep)) continue;
      const after = cli(dir, "duel", { me: q.me, opp: q.opp, remaining: o.dice_left, score: q.score + o.points, ...(q.rules ? { rules: q.rules } : {}) });
      if (after.bank !== null) pairs.push({ keep: o.keep, then: "bank", p: after.bank });
      pairs.push({ keep: o.keep, then: "throw", p: after.throw });
    }
    const offered = await page.$$eval("#duel-drill-options button", (b) => b.map((x) => JSON.parse(x.dataset.pair)));
    const key = (x) => `${x.keep} ${x.then}`;
    assert.deepEqual(offered.map(key).sort(), pairs.map(key).sort(), "10000 drill: every keep and what may follow it");
    const best = pairs.reduce((b, x) => (x.p > b.p ? x : b));
    const taken = pick === "best" ? best : pairs.find((x) => x.keep === mistake.chosen.keep && x.then === mistake.chosen.then);
    await page.click(`#duel-drill-options button >> nth=${offered.findIndex((x) => key(x) === key(taken))}`);
    await page.waitForFunction(() => document.querySelector("#duel-drill-answer").dataset.cost !== undefined, null, { timeout: STUCK_MS });
    const cost = Number(await page.getAttribute("#duel-drill-answer", "data-cost"));
    assert.ok(Math.abs(cost - (best.p - taken.p)) < 1e-12, `10000 drill: the cost ${cost}`);
    const answer = await page.textContent("#duel-drill-answer");
    if (pick === "best") {
      assert.equal(cost, 0);
      assert.match(answer, /^Right: keep \d+ \(\d+\) and (bank|throw \d)/);
    } else {
      assert.ok(Math.abs(cost - mistake.loss) < 1e-9, `10000 drill: as in the game it costs the review's ${mistake.loss}, not ${cost}`);
      assert.match(answer, / gives away [\d.]+ % chance of winning; the best is .*\(as in your game; why: /);
      assert.ok(answer.includes(mistake.reason.text), `10000 drill: the coach's reason\n${answer}`);
    }
    answered.push(pick);
  }
  assert.equal(await count(), kept - 1, "10000 drills: the drill answered best is done, the other waits again");
  await page.reload();
  await page.waitForFunction((n) => document.querySelector("#duel-drills")?.dataset.count === String(n), kept - 1, { timeout: STUCK_MS });
  return { kept, answered };
}

/**
 * The threes and one-throw 10000 advisors on the page at `base`: each
 * answer shown is the command line's from the tables in `dir`; a bad throw
 * shows the lookup layer's message; the table that answered is named.
 */
export async function askAdvisors(page, base, dir) {
  await page.goto(`${base}/?game=threes`);
  await page.fill('#threes-form input[name="dice"]', "31324");
  await page.fill('#threes-form input[name="after"]', "3");
  await page.click("#threes-form button");
  const threes = cli(dir, "threes", { dice: "31324", points: 0, after: 3, ties: "win", model: "sequential" });
  await page.waitForFunction(() => document.querySelector("#threes-source").textContent !== "");
  assert.equal(await page.textContent("#threes-advice"), `Best: keep ${threes.best.keep}: chance of success ${(100 * threes.p).toFixed(4)} %`);
  const rows = await page.$$eval("#threes-options tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(rows, threes.options.map((o) => [o.keep, `${(100 * o.p).toFixed(4)} %`]), "threes options");
  assert.match(await page.textContent("#threes-source"), /threes\.dtab/);
  // A bad throw: the lookup layer's message.
  await page.fill('#threes-form input[name="dice"]', "313245");
  await page.click("#threes-form button");
  await page.waitForFunction(() => document.querySelector("#threes-advice").classList.contains("error"));
  assert.match(await page.textContent("#threes-advice"), /dice given/);
  await fitsScreen(page);
  await page.screenshot({ path: `${shots}/threes.png`, fullPage: true });

  // 10000: for the most points, then to win the two-player game.
  await page.goto(`${base}/?game=duel`);
  const tenk = async (fields, game, q, show) => {
    for (const [name, value] of Object.entries(fields)) await page.fill(`#tenk-form input[name="${name}"]`, value);
    await page.evaluate(() => { document.querySelector("#tenk-source").textContent = ""; });
    await page.click("#tenk-form button");
    await page.waitForFunction(() => document.querySelector("#tenk-source").textContent !== "");
    const a = cli(dir, game, q);
    assert.equal(await page.textContent("#tenk-advice"), `Best: keep ${a.best.keep} for ${a.best.points}, then ${a.best.then} (${show(game === "duel" ? a.p : a.ev)})`);
    const shown = await page.$$eval("#tenk-options tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    assert.deepEqual(shown, a.options.map((o) => [o.keep, String(o.points), o.then, show(game === "duel" ? o.p : o.ev)]), `10000 ${JSON.stringify(q)}`);
    assert.match(await page.textContent("#tenk-source"), game === "duel" ? /duel\.dtab/ : /tenk\.dtab/);
  };
  await tenk({ dice: "155", score: "300" }, "tenk", { dice: "155", score: 300 }, (v) => v.toFixed(2));
  await tenk({ me: "2500", opp: "4000" }, "duel", { me: 2500, opp: 4000, dice: "155", score: 300, rules: "seed" }, (v) => `${(100 * v).toFixed(4)} %`);
  await fitsScreen(page);
  await page.screenshot({ path: `${shots}/tenk.png`, fullPage: true });
}

/** A seeded die for the dice a test rolls at the "table" (mulberry32). */
function tableDice(start) {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return 1 + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 6);
  };
}

/** The page's state, sheet and option rows: what a reload must give back. */
async function pageState(page) {
  return page.evaluate(() => ({
    data: { ...document.querySelector("#state").dataset, ms: "", at: "", advised: "" },
    dice: [...document.querySelectorAll("#state .die")].map((b) => [b.textContent, b.className]),
    sheet: [...document.querySelectorAll("#sheet tbody tr")].map((r) => [r.dataset.category, r.children[1].textContent, r.children[2].textContent]),
    total: [document.querySelector("#total").textContent, document.querySelector("#total-b").textContent],
    options: [...document.querySelectorAll("#options tbody tr")].map((r) => [r.dataset.action, r.dataset.ev, r.dataset.p]),
    advice: document.querySelector("#advice").textContent,
    log: [...document.querySelectorAll("#turn-log li")].map((li) => li.textContent),
  }));
}

/**
 * A Yatzy game already under way, with real dice: the sheet filled in by
 * hand (a box that cannot hold what is typed refused in one line), then
 * played on to the end with every throw typed (the page never rolls) and
 * the advised action taken, every option row the command line's; a reload
 * in the middle gives back the game exactly. Then a pasted game taken up
 * after a keep: the throw typed, the advice the command line's.
 */
export async function playUnderWay(page, base, dir) {
  const state = page.locator("#state");
  await page.goto(`${base}/?game=yatzy&new&seed=${seed}`);
  await page.check("#real-dice");
  assert.ok(await page.locator("#roll").isHidden(), "with real dice there is no Roll button");
  const sheet = { ones: "3", twos: "6", threes: "9", pair: "10", "two-pairs": "14", "small-straight": "15", chance: "22", yatzy: "0" };
  await page.click("#edit-sheet");
  for (const [box, points] of Object.entries(sheet)) await page.fill(`#sheet input[data-box="${box}"]`, points);
  await page.fill('#sheet input[data-box="fours"]', "6");
  await page.click("#edit-sheet");
  assert.equal(await page.textContent("#advice"), 'fours "6": it takes a multiple of 4 from 0 to 20, or nothing while open');
  await page.fill('#sheet input[data-box="fours"]', "");
  await page.click("#edit-sheet");
  const filled = await page.$$eval("#sheet td[data-points]", (c) => Object.fromEntries(c.map((x) => [x.parentElement.dataset.category, x.dataset.points])));
  assert.deepEqual(filled, sheet, "the sheet as filled in");
  assert.equal(await page.getAttribute("#total", "data-total"), "79");
  const die = tableDice(seed);
  const throwOf = (kept) => kept + Array.from({ length: 5 - kept.length }, die).join("");
  let decisions = 0;
  let reloaded = false;
  for (;;) {
    const phase = await state.getAttribute("data-phase");
    if (phase === "over") break;
    const advised = Number(await state.getAttribute("data-advised"));
    if (phase === "roll") {
      await page.fill("#entered", throwOf(""));
      await page.click("#enter button");
      await nextAdvice(page, advised);
      continue;
    }
    await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
    const q = JSON.parse(await state.getAttribute("data-query"));
    const answer = cli(dir, "yatzy", q);
    await optionsAre(page, answer, `yatzy under way ${JSON.stringify(q)}`);
    decisions += 1;
    if (decisions === 3) {
      // A wide screen: the options beside the sheet; the upper boxes against par.
      await page.setViewportSize({ width: 1280, height: 900 });
      const [options, sheetBox] = [await page.locator("#options").boundingBox(), await page.locator("#sheet").boundingBox()];
      assert.ok(options.x + options.width <= sheetBox.x && Math.abs(options.y - sheetBox.y) < 40, "two columns on a wide screen");
      await page.setViewportSize({ width: 390, height: 844 });
      assert.match(await page.textContent("#upper-bonus"), /^\d+ of 63; par \d+ \([+-]\d+\)$/);
      assert.equal(await page.textContent('#sheet tr[data-category="full-house"] td'), "Full House");
    }
    if (decisions === 6 && !reloaded) {
      // A reload in the middle of a turn: the same game, options and all.
      const before = await pageState(page);
      await page.reload();
      await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
      assert.deepEqual(await pageState(page), before, "a reload gives the game back");
      reloaded = true;
    }
    const action = answer.options[0].action;
    await page.click("#options tbody tr >> nth=0");
    if ("keep" in action) {
      // The page does not roll: it shows the dice kept and asks for the throw.
      await page.waitForFunction((k) => document.querySelector("#state").dataset.awaiting === k, action.keep);
      assert.deepEqual(await page.$$eval("#state .die", (b) => b.map((x) => x.textContent).join("")), action.keep);
      await page.fill("#entered", throwOf(action.keep));
      await page.click("#enter button");
      await nextAdvice(page, advised);
    } else {
      await page.waitForFunction((n) => document.querySelector("#state").dataset.phase !== "decide" || Number(document.querySelector("#state").dataset.advised) > n, advised);
    }
  }
  const boxes = await page.$$eval("#sheet td[data-points]", (c) => c.map((x) => Number(x.dataset.points)));
  assert.equal(boxes.length, BOXES.yatzy);
  const upper = boxes.slice(0, 6).reduce((s, p) => s + p, 0);
  const total = Number(await page.getAttribute("#total", "data-total"));
  assert.equal(total, boxes.reduce((s, p) => s + p, 0) + (upper >= 63 ? 50 : 0), "yatzy under way: the total");
  assert.ok(reloaded, "the game was reloaded in the middle");
  // The coach replays a game's text from its start, which a sheet filled in by hand does not hold: it says so.
  await page.waitForFunction(() => !document.querySelector("#review-coach").hidden, null, { timeout: STUCK_MS });
  assert.equal(await page.textContent("#review-coach-summary"), "No rating or reasons: the sheet was filled in by hand, and the coach replays a game from its start.");

  // A pasted game taken up after its last keep: the throw typed, then advised.
  await page.goto(`${base}/?game=yatzy&new&seed=${seed}`);
  await page.fill("#game-text", "11111 score yatzy\n12345 score small-straight\n66612 keep 666");
  await page.click("#review-form button");
  await page.waitForFunction(() => !document.querySelector("#resume").hidden);
  await page.click("#resume");
  await page.waitForFunction(() => document.querySelector("#state").dataset.awaiting === "666");
  const advised = Number(await state.getAttribute("data-advised"));
  await page.fill("#entered", "34666");
  await page.click("#enter button");
  await nextAdvice(page, advised);
  const q = JSON.parse(await state.getAttribute("data-query"));
  assert.deepEqual(q, { mask: 0x7fff & ~(1 << 14) & ~(1 << 10), dice: "34666", rerolls: 1, upper: 0 }, "the pasted game taken up");
  await optionsAre(page, cli(dir, "yatzy", q), "the pasted game's advice");
  await fitsScreen(page);
  return { decisions, total };
}

/** The option rows against someone, each (action, chance of winning), asserted equal to `answer`'s. */
async function chancesAre(page, answer, what) {
  const shown = await page.$$eval("#options tbody tr", (rows) => rows.map((r) => [r.dataset.action, Number(r.dataset.p)]));
  assert.deepEqual(shown, answer.options.map((o) => [JSON.stringify(o.action), o.p]), what);
}

/** Both sheets' totals as the page shows them, each asserted to be its boxes, upper bonus and Yahtzee bonuses. */
async function bothTotals(page, game) {
  const [bonus, bonusAt] = UPPER_BONUS[game];
  const totals = [];
  for (const [seat, suffix] of [[0, ""], [1, "-b"]]) {
    const boxes = await page.$$eval(`#sheet td[data-seat="${seat}"][data-points]`, (c) => c.map((x) => Number(x.dataset.points)));
    assert.equal(boxes.length, BOXES[game], `${game}: sheet ${seat + 1} filled`);
    const upper = (await page.$$eval(`#sheet tbody tr`, (rows, s) => rows.slice(0, 6).map((r) => Number(r.querySelector(`td[data-seat="${s}"]`).dataset.points)), seat))
      .reduce((a, b) => a + b, 0);
    const bonuses = game === "yahtzee" ? Number(await page.textContent(`#yahtzee-bonuses${suffix}`)) : 0;
    const total = Number(await page.getAttribute(`#total${suffix}`, "data-total"));
    assert.equal(total, boxes.reduce((a, b) => a + b, 0) + (upper >= bonusAt ? bonus : 0) + bonuses, `${game}: sheet ${seat + 1}'s total`);
    totals.push(total);
  }
  return totals;
}

/**
 * A whole game of `game` (yazy, yatzy, yahtzee under the forced reading)
 * against the computer (`opponent` "computer", who starts: `first`) or two
 * people at one table ("table"), on the page at `base`. Before every
 * decision of a player the chance of winning shown and every option row
 * are what `reader lookup --json` answers with the opponent's flags for
 * that state (from the tables in `dir`); the advised action is taken
 * except at decisions `mistakes` (1-based, the player's), where the first
 * worse option is. Every step of the computer is the command line's best
 * for its state. The totals are the sheets' sums; the review lists every
 * decision of the player(s), costing exactly the mistakes. At decision
 * `pointsAt` the points view is checked against the lookup alone.
 * `filled`: both sheets as they stand, filled in by hand before playing
 * on ({box: points} for each player); `reloadAt`: a decision at which the
 * page is reloaded and must come back exactly.
 */
export async function playAgainst(page, base, dir, game, { opponent = "computer", first = "you", mistakes = [], pointsAt, filled, reloadAt } = {}) {
  await page.goto(`${base}/?game=${game}&opponent=${opponent}&first=${first}&new&seed=${seed}`);
  const state = page.locator("#state");
  if (filled) {
    await page.click("#edit-sheet");
    for (const [seat, sheet] of filled.entries()) {
      for (const [box, points] of Object.entries(sheet)) await page.fill(`#sheet input[data-seat="${seat}"][data-box="${box}"]`, points);
    }
    await page.click("#edit-sheet");
    for (const [seat, sheet] of filled.entries()) {
      const shown = await page.$$eval(`#sheet td[data-seat="${seat}"][data-points]`, (c) => Object.fromEntries(c.map((x) => [x.parentElement.dataset.category, x.dataset.points])));
      assert.deepEqual(shown, sheet, `sheet ${seat + 1} as filled in`);
    }
  }
  const players = opponent === "table" ? ["player 1", "player 2"] : first === "you" ? ["you", "the computer"] : ["the computer", "you"];
  let decisions = 0;
  let computerSteps = 0;
  let firstAdviceAt = null;
  const computerMs = [];
  const costs = [];
  const movers = [];
  const checkComputer = async () => {
    const steps = await page.$$eval("#turn-log li", (li) => li.map((x) => [x.dataset.query, x.dataset.action]));
    for (const [q, action] of steps) {
      const answer = cli(dir, game, JSON.parse(q));
      assert.equal(action, JSON.stringify(answer.best), `the computer's step ${q}`);
    }
    assert.ok(steps.length > 0 && "category" in JSON.parse(steps.at(-1)[1]), "the computer's turn ends with a box");
    computerSteps += steps.length;
    computerMs.push(Number(await state.getAttribute("data-computer-ms")));
  };
  // Waits until a player (not the computer) is to act, or the game is over.
  const playersTurn = (after) => page.waitForFunction((n) => {
    const s = document.querySelector("#state").dataset;
    const best = document.querySelector("#advice").dataset.best;
    return s.phase === "over" || (s.mover !== "the computer" && (s.phase === "roll" || (s.phase === "decide" && best !== "" && Number(s.advised) > n)));
  }, after, { timeout: STUCK_MS }).catch(async (e) => {
    throw new Error(`the page is stuck: it says "${await page.textContent("#advice")}" (${e.message})`);
  });
  await playersTurn(-1);
  if (first === "computer") await checkComputer();
  for (;;) {
    const phase = await state.getAttribute("data-phase");
    if (phase === "over") break;
    const advised = Number(await state.getAttribute("data-advised"));
    const mover = await state.getAttribute("data-mover");
    if (phase === "roll") {
      if (movers.at(-1) !== mover) movers.push(mover);
      await page.click("#roll");
      await playersTurn(advised);
      continue;
    }
    const q = JSON.parse(await state.getAttribute("data-query"));
    assert.ok("opp-mask" in q && "me" in q && "opp" in q, `a lookup against someone: ${JSON.stringify(q)}`);
    const answer = cli(dir, game, q);
    const what = `${game} against ${opponent}, ${mover} ${JSON.stringify(q)}`;
    assert.equal(Number(await page.getAttribute("#advice", "data-p")), answer.p, what);
    assert.equal(await page.getAttribute("#advice", "data-exact"), String(answer.exact), what);
    assert.match(await page.textContent("#advice"), answer.exact ? /exact, from the two-player table/ : /an estimate: the opponent-aware advisor's/);
    await chancesAre(page, answer, what);
    decisions += 1;
    // From navigation to the first advice of the player, by the page's clock.
    if (decisions === 1) firstAdviceAt = Number(await state.getAttribute("data-at"));
    if (decisions === reloadAt) {
      // A reload in the middle of a turn: the same game, both sheets, options and all.
      const before = await pageState(page);
      await page.reload();
      await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
      assert.deepEqual(await pageState(page), before, "a reload gives the two-player game back");
    }
    if (decisions === pointsAt) {
      // The points view: the options the lookup alone ranks.
      await page.check("#points-view");
      await page.waitForFunction(() => document.querySelector("#options tbody tr")?.dataset.ev !== undefined);
      const { "opp-mask": _m, "opp-upper": _u, "opp-yahtzee-bonus": _b, me: _me, opp: _o, ...alone } = q;
      await optionsAre(page, cli(dir, game, alone), `${what}, by points`);
      await page.uncheck("#points-view");
      await page.waitForFunction(() => document.querySelector("#options tbody tr")?.dataset.p !== undefined);
      await chancesAre(page, answer, what);
    }
    let index = 0;
    if (mistakes.includes(decisions)) {
      index = answer.options.findIndex((o) => o.p < answer.options[0].p);
      assert.ok(index > 0, `decision ${decisions} has a worse option`);
      costs.push(answer.options[0].p - answer.options[index].p);
    }
    const scoring = "category" in answer.options[index].action;
    const before = Number(await state.getAttribute("data-advised"));
    await page.click(`#options tbody tr >> nth=${index}`);
    await playersTurn(before);
    if (!scoring) adviceMs.push([Number(await state.getAttribute("data-ms")), `${game} against ${opponent} ${await state.getAttribute("data-query")}`]);
    // After the player's box the computer plays its turn (the last one too, when it moves second).
    if (scoring && opponent === "computer" && ((await state.getAttribute("data-phase")) !== "over" || first === "you")) await checkComputer();
  }
  const totals = await bothTotals(page, game);
  const [a, b] = totals;
  const outcome = a === b ? "a tie" : `${(a > b ? players[0] : players[1]) === "you" ? "you win" : `${a > b ? players[0] : players[1]} wins`}`;
  assert.equal(await page.textContent("#advice"), `Game over. ${players[0][0].toUpperCase()}${players[0].slice(1)} ${a}, ${players[1]} ${b}: ${outcome}.`);
  if (opponent === "table") {
    // The advice switched sides at every turn.
    const turns = 2 * BOXES[game] - (filled ?? []).reduce((n, sheet) => n + Object.keys(sheet).length, 0);
    const firstMover = filled && Object.keys(filled[1]).length < Object.keys(filled[0]).length ? 1 : 0;
    assert.equal(movers.length, turns, `${game}: a turn each, in turn: ${movers}`);
    movers.forEach((m, i) => assert.equal(m, players[(i + firstMover) % 2], `turn ${i + 1}'s mover`));
  }
  const review = await playedReview(page);
  assert.equal(review.length, decisions, `${game}: the review lists every decision of the player(s)`);
  assert.deepEqual(review.filter((c) => c > 0), costs, `${game}: the review's costs`);
  const lost = Number(await page.getAttribute("#review-summary", "data-lost"));
  assert.ok(Math.abs(lost - costs.reduce((s, c) => s + c, 0)) < 1e-12, `${game}: lost ${lost}`);
  const swings = await page.$$eval("#review-swings li", (li) => li.map((x) => Number(x.dataset.swing)));
  assert.ok(swings.length === 3 && swings.every((s, i) => i === 0 || Math.abs(s) <= Math.abs(swings[i - 1])), `${game}: the three largest swings, largest first: ${swings}`);
  if (filled && COACHED_AGAINST.includes(game)) {
    // The coach replays a game's text from its start, which a sheet filled in by hand does not hold: it says so.
    await page.waitForFunction(() => !document.querySelector("#review-coach").hidden, null, { timeout: STUCK_MS });
    assert.equal(await page.textContent("#review-coach-summary"), "No rating or reasons: the sheet was filled in by hand, and the coach replays a game from its start.");
  }
  let coach = null;
  if (mistakes.length) {
    // The game as the page writes it, pasted back: the same review.
    const text = await page.inputValue("#game-text");
    assert.ok(/^game: [a-z-]+\n[12]: /.test(text), "a header, then a two-player game's lines name the player");
    // Where the backend reviews the game against someone exactly (yazy's two-player table), the coach as the command line.
    if (COACHED_AGAINST.includes(game)) {
      coach = await coached(page, dir, game, text, review, players.flatMap((p, i) => (p === "the computer" ? [] : [i + 1])));
    }
    await page.fill("#game-text", text);
    await page.click("#review-form button");
    await page.waitForFunction(() => document.querySelector("#review-summary").dataset.source === "pasted");
    const pasted = await page.$$eval("#review-table tbody tr", (rows) => rows.map((r) => Number(r.dataset.cost)));
    assert.deepEqual(pasted, review, "the pasted game's review");
  }
  await fitsScreen(page);
  await page.screenshot({ path: `${shots}/against-${opponent}-${game}${mistakes.length ? "-mistakes" : ""}.png`, fullPage: true });
  return { decisions, totals, computerSteps, computerMs, firstAdviceAt, result: outcome, coach };
}

/**
 * A whole game of `game` played alone for a final score of `target` or
 * more (the target tables): before every decision the chance shown and
 * every option row are what `reader lookup --need` answers (the points
 * still needed: the target less the sheet's points, the upper bonus being
 * among the points to come); the advised action is taken except at
 * decisions `mistakes`, which the review lists with the command line's
 * costs; the points view once, checked against the lookup alone.
 */
export async function playToReach(page, base, dir, game, target, { mistakes = [] } = {}) {
  await page.goto(`${base}/?game=${game}&opponent=target&target=${target}&new&seed=${seed}`);
  const state = page.locator("#state");
  let decisions = 0;
  const costs = [];
  for (;;) {
    const phase = await state.getAttribute("data-phase");
    if (phase === "over") break;
    const advised = Number(await state.getAttribute("data-advised"));
    if (phase === "roll") {
      await page.click("#roll");
      await nextAdvice(page, advised);
      continue;
    }
    await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
    const q = JSON.parse(await state.getAttribute("data-query"));
    const onSheet = await page.evaluate(() => [...document.querySelectorAll('#sheet td[data-seat="0"][data-points]')]
      .reduce((s, c) => s + Number(c.dataset.points), 0) + Number(document.querySelector("#yahtzee-bonuses").textContent));
    assert.equal(q.need, target - onSheet, `${game}: need ${q.need} with ${onSheet} on the sheet`);
    const answer = cli(dir, game, q);
    const what = `${game} for ${target} ${JSON.stringify(q)}`;
    assert.equal(Number(await page.getAttribute("#advice", "data-p")), answer.p, what);
    assert.match(await page.textContent("#advice"), new RegExp(`^Chance of a final score of ${target} or more: `));
    await chancesAre(page, answer, what);
    decisions += 1;
    if (decisions === 2) {
      await page.check("#points-view");
      await page.waitForFunction(() => document.querySelector("#options tbody tr")?.dataset.ev !== undefined);
      const { need: _n, ...alone } = q;
      await optionsAre(page, cli(dir, game, alone), `${what}, by points`);
      await page.uncheck("#points-view");
      await page.waitForFunction(() => document.querySelector("#options tbody tr")?.dataset.p !== undefined);
    }
    let index = 0;
    if (mistakes.includes(decisions)) {
      index = answer.options.findIndex((o) => o.p < answer.options[0].p);
      assert.ok(index > 0, `decision ${decisions} has a worse option`);
      costs.push(answer.options[0].p - answer.options[index].p);
    }
    await page.click(`#options tbody tr >> nth=${index}`);
    await nextAdvice(page, advised);
  }
  const total = Number(await page.getAttribute("#total", "data-total"));
  const review = await playedReview(page);
  assert.equal(review.length, decisions);
  assert.deepEqual(review.filter((c) => c > 0), costs, `${game}: the review's costs`);
  assert.match(await page.textContent("#review-summary"), new RegExp(`chance of reaching ${target} given away in all\\. Score ${total}: (reached|short of) ${target}\\.$`));
  // The accuracy, in chance, from the command line's chance at the start.
  const lost = Number(await page.getAttribute("#review-summary", "data-lost"));
  const start = cli(dir, game, { mask: "all", ...(game === "yazy" ? {} : { upper: 0 }), need: target }).p;
  await page.waitForFunction(() => document.querySelector("#review-accuracy").dataset.accuracy !== undefined, null, { timeout: STUCK_MS });
  assert.equal(Number(await page.getAttribute("#review-accuracy", "data-start")), start, `${game} for ${target}: the start's chance`);
  const accuracy = Number(await page.getAttribute("#review-accuracy", "data-accuracy"));
  assert.ok(Math.abs(accuracy - (lost > 0 ? 100 * Math.exp((-4 * lost) / start) : 100)) < 1e-9, `${game} for ${target}: accuracy ${accuracy}`);
  // The game's text names its target, and the coach reviews it for that target as the command line does.
  const text = await page.inputValue("#game-text");
  assert.equal(text.split("\n").slice(0, 2).join("\n"), `game: ${game}\ntarget: ${target}`);
  const coach = COACHED[game] !== undefined ? await coached(page, dir, game, text, review) : null;
  // Pasted back, the same review.
  await page.fill("#game-text", text);
  await page.click("#review-form button");
  await page.waitForFunction(() => document.querySelector("#review-summary").dataset.source === "pasted");
  assert.deepEqual(await page.$$eval("#review-table tbody tr", (rows) => rows.map((r) => Number(r.dataset.cost))), review, `${game} for ${target}: the pasted game's review`);
  await fitsScreen(page);
  await page.screenshot({ path: `${shots}/target-${game}-${target}.png`, fullPage: true });
  return { decisions, total, reached: total >= target, coach };
}

/**
 * A whole game of the rule set `name` the server holds, from the "Your
 * rules" tab (added for the rule sets' tables the server holds), taking the
 * best option each time: alone for the average or, with `goal`, for a final
 * score of `goal` or more; or, with `players` 2, two players passing the
 * dice, or with `players` "computer", this test against the computer (the
 * page's second sheet, which takes its best option each time), each
 * option ranked by the chance of winning: exact where the server holds the
 * rule set's two-player table (v1/info's `duel`), else the
 * opponent-aware advisor's estimate from its target table. Every option
 * row is the command line's
 * (`reader lookup NAME --json` from the tables in `dir`, with `--need` the
 * points still needed, or the other sheet and both totals so far), and
 * each total the sheet's points plus the upper bonus. Where the rules save
 * a turn's unused rerolls (v1/info's `saved_rerolls`), each turn asks with
 * the rerolls the last one left (`saved`) and starts with its own and
 * those. Also says whether the tab offered the goal and the second player
 * (where the server holds the target table), and the most rerolls a turn
 * had. The page's dice are drawn from `diceSeed`. Against the computer,
 * each of its turns is checked when it ends: every step asked as the page
 * asks, and the option it took the command line's best.
 */
export async function playRuleSet(page, base, dir, name, { goal = null, players = 1, diceSeed = seed, mistakes = [] } = {}) {
  await page.goto(`${base}/?seed=${diceSeed}`);
  await page.click('.tab[data-game="rules"]');
  await page.selectOption("#rule-set", name);
  const targetOffered = (await page.isVisible("#rules-goal")) && (await page.isVisible("#rules-players"));
  if (players !== 1) await page.selectOption("#rules-players", String(players));
  const computer = players === "computer";
  const two = players !== 1;
  if (goal !== null) await page.fill("#rules-goal", String(goal));
  await page.click("#rules-new");
  const sheet = async (suffix) => {
    const cells = await page.$$eval(`#rules-sheet tbody td:nth-child(${suffix ? 3 : 2})`, (tds) => tds.map((td) => Number(td.textContent)));
    const bonus = Number((await page.textContent(`#rules-bonus${suffix}`)).split(" ")[0] || 0);
    const total = Number(await page.textContent(`#rules-total${suffix}`));
    assert.equal(total, cells.reduce((a, b) => a + b, 0) + bonus, `${name}: the total is the sheet's`);
    return { total, bonus };
  };
  // The boxes that, served, win a two-player game at once, and whether
  // unused rerolls are saved: the rule sets' tables as the page was told
  // of them (reader serve's v1/info, or the static site's module).
  const tablesServed = JSON.parse(await page.$eval("#rules", (s) => s.dataset.sets));
  const listed = tablesServed.find((t) => t.game === name);
  const winsAtOnce = listed.wins_at_once;
  const exact = tablesServed.some((t) => t.duel && t.rule_set_name === name);
  assert.deepEqual(winsAtOnce, name === "generala" ? ["generala", "double-generala"] : [], `${name}: the boxes that win at once served`);
  assert.ok(!mistakes.length || !two || exact, `${name}: mistakes only where the game is reviewed (alone, or exactly against someone)`);
  let [answers, decisions, mover, served] = [0, 0, 0, null];
  // Each player's rerolls saved, as this test counts them; the most a turn had.
  const saved = [0, 0];
  let mostRerolls = 0;
  // The computer's turn just played, checked step by step.
  const computerTurn = async () => {
    const steps = JSON.parse(await page.$eval("#rules", (s) => s.dataset.computerTurn));
    if (served !== null) return; // the game ended on a served win: no turn since
    assert.ok(steps.length > 0, `${name}: the computer played a turn`);
    steps.forEach(({ asked, action, first }, i) => {
      const answer = cli(dir, name, asked);
      assert.equal(answer.exact, exact, `${name}: the computer's chances exact where the server holds the two-player table`);
      assert.deepEqual(action, answer.options[0].action, `${name}: the computer took the best option`);
      assert.equal("keep" in action, i < steps.length - 1, `${name}: a turn ends on its score`);
      if (first && action.points > 0 && winsAtOnce.includes(action.category)) served = { player: 2, box: action.category };
    });
    decisions += steps.length;
  };
  while (true) {
    if (computer) {
      await page.waitForFunction(() => !document.querySelector("#rules-roll").disabled || document.querySelector("#rules-advice").textContent.startsWith("game over"));
      if (mover === 1) {
        await computerTurn();
        mover = 0;
      }
    }
    if (await page.$eval("#rules-roll", (b) => b.disabled)) break;
    answers = Number(await page.$eval("#rules", (s) => s.dataset.answers ?? 0));
    await page.click("#rules-roll");
    for (let first = true; ; first = false) {
      await page.waitForFunction((n) => Number(document.querySelector("#rules").dataset.answers ?? 0) > n, answers);
      answers += 1;
      const asked = JSON.parse(await page.$eval("#rules", (s) => s.dataset.query));
      if (listed.saved_rerolls) {
        assert.equal(asked.saved, saved[mover], `${name}: the rerolls saved`);
        if (first) assert.equal(asked.rerolls, listed.rerolls + saved[mover], `${name}: a turn's own rerolls and those saved`);
      } else {
        assert.equal(asked.saved, undefined, `${name}: no rerolls saved`);
      }
      mostRerolls = Math.max(mostRerolls, asked.rerolls);
      if (goal !== null) {
        const { total, bonus } = await sheet("");
        assert.equal(asked.need, Math.max(0, goal - (total - bonus)), `${name}: the points still needed`);
      }
      if (two) {
        const [mine, theirs] = mover === 0 ? [await sheet(""), await sheet("-2")] : [await sheet("-2"), await sheet("")];
        assert.deepEqual([asked.me, asked.opp], [mine.total - mine.bonus, theirs.total - theirs.bonus], `${name}: both totals so far`);
        assert.match(await page.textContent("#rules-advice"), new RegExp(`^${computer ? "you" : `player ${mover + 1}`}: best: `));
        assert.equal(await page.textContent("#rules-value"), `chance of winning (${exact ? "exact" : "estimate"})`);
      }
      const answer = cli(dir, name, asked);
      if (two) assert.equal(answer.exact, exact, `${name}: the chances exact where the server holds the two-player table`);
      const shown = await page.$$eval("#rules-options tbody tr", (rows) => rows.map((r) => [r.dataset.action, Number(r.dataset.value)]));
      const value = (o) => (goal === null && players === 1 ? o.ev : o.p);
      assert.deepEqual(shown, answer.options.map((o) => [JSON.stringify(o.action), value(o)]), `${name}: an answer`);
      // A deliberate mistake takes the last option.
      const mistake = mistakes.includes(decisions);
      await page.click(`#rules-options tbody tr:${mistake ? "last" : "first"}-child button`);
      decisions += 1;
      const { action } = answer.options[mistake ? answer.options.length - 1 : 0];
      if ("keep" in action) continue;
      if (listed.saved_rerolls) saved[mover] = asked.rerolls;
      if (two && first && action.points > 0 && winsAtOnce.includes(action.category)) served = { player: mover + 1, box: action.category };
      break;
    }
    if (two) mover = 1 - mover;
  }
  const { total } = await sheet("");
  let said = `game over: ${total} points${goal === null ? "" : ` (goal ${goal}: ${total >= goal ? "reached" : "short"})`}`;
  let second = null;
  if (two) {
    second = (await sheet("-2")).total;
    const wins = (p) => (computer ? ["you win", "the computer wins"][p - 1] : `player ${p} wins`);
    said = served
      ? `game over: ${wins(served.player)} with a served ${served.box} (player 1 ${total}, player 2 ${second})`
      : `game over: player 1 ${total}, player 2 ${second}: ${total === second ? "a tie" : wins(total > second ? 1 : 2)}`;
  }
  assert.equal(await page.textContent("#rules-advice"), said);
  // Against someone the review reads the two-player table: a game the advisor estimated is not reviewed.
  const review = two && !exact ? null : await ruleReviewed(page, dir, name, mistakes, goal, two);
  await fitsScreen(page);
  return { total, second, decisions, targetOffered, served, mostRerolls, exact, review };
}

/**
 * The review the rules tab shows at the end of a game of rule set `name`
 * played alone for the average, whose decisions `mistakes` (counted from
 * 0) took the last option and the others the best: the command line's
 * review of the game's text (`reader review NAME FILE --json` over the
 * tables in `dir`) exactly, its largest mistakes exactly those decisions
 * (each giving something away), each shown with the command line's loss
 * and reason; then the same text pasted, reviewed the same.
 */
/**
 * The mistakes the page lists (`items`, each with its line, loss and
 * reason in its data) are `expected`'s largest (the command line's
 * review), each with its loss and reason, the reason's words last;
 * returns them as [line, loss, reason, words].
 */
async function listedAsReviewed(page, items, expected, name) {
  const listed = await page.$$eval(items, (lis) => lis.map((li) => [Number(li.dataset.line), Number(li.dataset.loss), li.dataset.reason, li.textContent]));
  assert.deepEqual(listed.map(([line, loss, reason]) => [line, loss, reason]), expected.largest_mistakes.map((line) => {
    const d = expected.decisions.find((x) => x.line === line);
    assert.ok(d.reason?.text, `${name}: line ${line} has its reason`);
    return [line, d.loss, d.reason.text];
  }), `${name}: each mistake with the command line's loss and reason`);
  const why = expected.players !== undefined ? "(the best to win less yours, " : expected.target === undefined ? "(the best less yours)" : "(the best for the target less yours, ";
  for (const [, , reason, words] of listed) assert.ok(words.includes(why) && words.endsWith(`: ${reason}.`), words);
  return listed;
}

/**
 * The built-in games whose games the backend's review takes (the page's
 * coach: rating and reasons), each under the rules (`joker` of play()) of
 * its parts table.
 */
const COACHED = { yatzy: "forced", yahtzee: "forced", yazy: "forced", "maxi-yatzy": "finnish" };
/**
 * The coach's running curve, drawn right after the paragraph `summary`,
 * is review `expected`'s (as `reader review --json` gives it): for each
 * player (the one alone), after each of their decisions, what the dice
 * brought and what the decisions gave away so far, within 1e-9, ending at
 * the review's figures for them.
 */
async function curveIs(page, summary, expected, what) {
  const lines = await page.$eval(summary, (s) => {
    const svg = s.nextElementSibling;
    if (!svg?.classList.contains("luck-curve")) return null;
    return [...svg.querySelectorAll("polyline")].map((l) => ({ series: l.dataset.series, player: Number(l.dataset.player), values: JSON.parse(l.dataset.values) }));
  });
  assert.ok(lines !== null, `${what}: the running curve is drawn`);
  const players = expected.players ?? [{ player: 1, luck: expected.luck, loss: expected.loss }];
  assert.equal(lines.length, 2 * players.length, `${what}: two lines a player`);
  for (const p of players) {
    const mine = expected.decisions.filter((d) => expected.players === undefined || d.player === p.player);
    let [luck, loss] = [0, 0];
    const want = { dice: mine.map((d) => (luck += d.luck)), decisions: mine.map((d) => (loss -= d.loss)) };
    for (const [series, end] of [["dice", p.luck], ["decisions", -p.loss]]) {
      const line = lines.find((l) => l.series === series && l.player === p.player);
      assert.ok(line, `${what}: player ${p.player}'s ${series} line`);
      assert.equal(line.values.length, mine.length, `${what}: player ${p.player}'s ${series} line, a point a decision`);
      line.values.forEach((v, k) => assert.ok(Math.abs(v - want[series][k]) < 1e-9, `${what}: player ${p.player}'s ${series} after decision ${k + 1}: ${v}, not ${want[series][k]}`));
      assert.ok(Math.abs(line.values.at(-1) - end) < 1e-9, `${what}: player ${p.player}'s ${series} line ends at ${line.values.at(-1)}, the review's ${end}`);
    }
  }
}

/** A game's coach as the browser tests report it: its rating and reasons, or the line saying what it lacks. */
export const coachText = (c) => (c === null ? "no coach"
  : c.missing !== undefined ? `the coach's line: ${c.missing}`
  : `the coach as the CLI reviews it: rating ${Math.round(c.rating)}, why: ${c.reasons.join("; ")}`);
/** Of those, the ones whose parts table `make tables` leaves out (`make NAME-parts` writes it). */
const OPTIONAL_PARTS = ["maxi-yatzy"];

/**
 * The coach's review of a game played on the page, as coached() checks it,
 * where `dir` (the tables the backend was made from) holds the game's
 * parts table; else, for a game whose parts table is optional, the coach's
 * line says which table is missing and what makes it, and lists nothing.
 */
async function coachedWherePartsAre(page, dir, game, text, costs) {
  if (!OPTIONAL_PARTS.includes(game) || existsSync(join(dir, `${game}-parts.dtab`))) return coached(page, dir, game, text, costs);
  await page.waitForFunction(() => document.querySelector("#review-coach-summary").textContent.startsWith("No rating or reasons: "),
    null, { timeout: STUCK_MS });
  assert.ok(await page.isVisible("#review-coach"), `${game}: the coach's line shows`);
  const said = await page.textContent("#review-coach-summary");
  assert.match(said, new RegExp(`^No rating or reasons: .*${game}-parts\\.dtab.*\`make ${game}-parts\``), `${game}: the coach says what it lacks`);
  assert.equal(await page.$$eval("#review-coach-mistakes li", (l) => l.length), 0, `${game}: no mistakes listed without the coach`);
  return { missing: said };
}
/** Those whose games against someone it takes too (from an exact two-player table). */
const COACHED_AGAINST = ["yazy"];

/**
 * The coach's review of a Yatzy, Yahtzee or yazy game played on the page (the
 * backend's, from the page's text) is `reader review`'s of the same text:
 * each decision gives away what the page's own review says it cost
 * (within 1e-6, yazy's 2e-5: the page's comes from the built-in lookup;
 * for a target, each chance within 1e-9: both read the target table), and the
 * largest mistakes are listed with the command line's losses and reasons.
 */
async function coached(page, dir, game, text, costs, seats = [1]) {
  await page.waitForFunction(() => document.querySelector("#review-coach").dataset.review !== undefined, null, { timeout: STUCK_MS });
  const file = join(process.env.TMPDIR || "/tmp", `dice-tables-coach-${process.pid}.txt`);
  writeFileSync(file, text);
  const expected = JSON.parse(execFileSync(reader, ["review", game, file, "--json", "--tables", dir], { encoding: "utf8" }));
  rmSync(file);
  assertSameReview(JSON.parse(await page.$eval("#review-coach", (r) => r.dataset.review)), expected, `${game}: the page's coach is the command line's review`);
  await curveIs(page, "#review-coach-summary", expected, `${game}: the coach`);
  // Against the computer, the page's own review lists the player's decisions alone.
  const two = expected.players !== undefined;
  const mine = two ? expected.decisions.filter((d) => seats.includes(d.player)) : expected.decisions;
  assert.equal(mine.length, costs.length, `${game}: every decision reviewed`);
  // yazy's table holds a keep's value as an f32 (within 2e-5), which the page's own review reads;
  // for a target or against someone both read the same chances.
  const within = expected.target !== undefined || two ? 1e-9 : game === "yazy" ? 2e-5 : 1e-6;
  mine.forEach((d, k) => assert.ok(Math.abs(d.loss - costs[k]) < within, `${game}: decision ${k + 1} gave ${d.loss} away, the page says ${costs[k]}`));
  const listed = await listedAsReviewed(page, "#review-coach-mistakes li", expected, game);
  if (two) {
    // Each player's figures, in their chance of winning, and each one's rating from the reference players' against someone.
    assert.ok(expected.players.every((p) => p.rating > 0), `${game} against someone: each player rated`);
    const rated = "rating \\d+ \\(Elo scale, random play 0\\)\\.";
    assert.match(await page.textContent("#review-coach-summary"), new RegExp(`^Game over: player 1 \\d+, player 2 \\d+: .* Player 1: their dice brought .*${rated} Player 2: their dice brought .*${rated}$`));
  } else if (expected.target === undefined) {
    assert.ok(expected.rating > 0, `${game}: a rating`);
    assert.match(await page.textContent("#review-coach-summary"), / rating \d+ \(Elo scale, random play 0\)\.$/);
  } else {
    // No reference players' figures for these targets: an accuracy and no rating.
    assert.equal(expected.rating, null, `${game} for ${expected.target}: no rating`);
    assert.match(await page.textContent("#review-coach-summary"), new RegExp(`Accuracy [\\d.]+ of 100, no rating \\(play for ${expected.target} has no reference players' figures\\)\\.$`));
  }
  return { rating: expected.rating, reasons: listed.map(([, , reason]) => reason) };
}

async function ruleReviewed(page, dir, name, mistakes, goal, two) {
  await page.waitForFunction(() => document.querySelector("#rules-review").dataset.review !== undefined
    && !document.querySelector("#rules-review-result").hidden, null, { timeout: STUCK_MS });
  const text = await page.inputValue("#rules-game-text");
  const header = `game: ${name}\n${two ? "players: 2\n" : goal === null ? "" : `target: ${goal}\n`}`;
  assert.ok(text.startsWith(header), `${name}: the game's text names its rule set (and its goal, or its two players)`);
  const file = join(process.env.TMPDIR || "/tmp", `dice-tables-review-${process.pid}.txt`);
  writeFileSync(file, text);
  const expected = JSON.parse(execFileSync(reader, ["review", name, file, "--json", "--tables", dir], { encoding: "utf8" }));
  rmSync(file);
  const shown = JSON.parse(await page.$eval("#rules-review", (r) => r.dataset.review));
  assertSameReview(shown, expected, `${name}: the page's review is the command line's`);
  await curveIs(page, "#rules-review-summary", expected, `${name}: the review`);
  assert.equal(expected.target, goal ?? undefined, `${name}: reviewed for the goal played for`);
  // The header is line 1 (and 2, a goal's): decision k is the line after it, k + 1 further.
  const lines = mistakes.map((k) => k + header.split("\n").length);
  assert.deepEqual([...expected.largest_mistakes].sort((a, b) => a - b), lines, `${name}: the largest mistakes are the deliberate ones`);
  if (two) {
    // Each line names its player, the players taking turns.
    const decided = text.split("\n").slice(2);
    assert.deepEqual(decided.map((l) => Number(l.split(":")[0])), expected.decisions.map((d) => d.player), `${name}: each line its player's`);
    assert.equal(expected.players.length, 2, `${name}: each player's figures`);
    assert.match(await page.textContent("#rules-review-summary"), /^(Game over|Under way).* Player 1: their dice brought .* Player 2: their dice brought /);
  }
  // Chances within the tables' tie allowance are tied (a two-player table's: two units of 2^-23).
  const tie = two ? 2 / (2 ** 23 - 1) : goal === null ? 0 : 1e-7;
  for (const d of expected.decisions) assert.equal(d.loss > tie, lines.includes(d.line), `${name}: line ${d.line} gave ${d.loss} away`);
  const listed = await listedAsReviewed(page, "#rules-review-mistakes li", expected, name);
  // The same text pasted gives the same review.
  await page.$eval("#rules-review", (r) => { delete r.dataset.review; });
  await page.fill("#rules-game-text", text);
  await page.click("#rules-review-form button");
  await page.waitForFunction(() => document.querySelector("#rules-review").dataset.review !== undefined, null, { timeout: STUCK_MS });
  assertSameReview(JSON.parse(await page.$eval("#rules-review", (r) => r.dataset.review)), expected, `${name}: a pasted game's review`);
  // A text that breaks the rules is refused in one line naming it.
  await page.fill("#rules-game-text", `game: ${name}\n11111 keep 66`);
  await page.click("#rules-review-form button");
  await page.waitForFunction(() => document.querySelector("#rules-review-error").textContent !== "", null, { timeout: STUCK_MS });
  assert.match(await page.textContent("#rules-review-error"), /^line 2 \(11111 keep 66\): /);
  return { mistakes: lines.length, loss: expected.loss, reasons: listed.map(([, , reason]) => reason) };
}

/**
 * The drills of `game` after a game with the mistakes at the states
 * `mistaken` (its three largest, or all of fewer), on the page at hand:
 * one answered with the command line's best option (done: one drill
 * fewer), one with the worst (it waits its turn again), each drill's
 * state one of the mistakes', its options the command line's and the
 * cost said exactly; after a reload the drills are still there.
 */
export async function drill(page, dir, game, mistaken, reasons) {
  const count = () => page.getAttribute("#drills", "data-count").then(Number);
  const kept = Math.min(mistaken.length, 3);
  await page.waitForFunction((n) => document.querySelector("#drills")?.dataset.count === String(n), kept, { timeout: STUCK_MS });
  const same = (a, b) => (a.keep ?? null) === (b.keep ?? null) && (a.category ?? null) === (b.category ?? null);
  const answered = [];
  for (const pick of ["best", "worst"]) {
    await page.click("#drill-start");
    await page.waitForFunction(() => document.querySelectorAll("#drill-options button").length > 0, null, { timeout: STUCK_MS });
    const q = JSON.parse(await page.getAttribute("#drill", "data-query"));
    assert.ok(mistaken.some((m) => JSON.stringify(m) === JSON.stringify(q)), `${game}: the drill's state ${JSON.stringify(q)} is a mistake's`);
    const answer = cli(dir, game, q);
    const actions = await page.$$eval("#drill-options button", (b) => b.map((x) => JSON.parse(x.dataset.action)));
    assert.equal(actions.length, answer.options.length, `${game}: the drill offers every option`);
    const taken = pick === "best" ? answer.options[0] : answer.options.at(-1);
    await page.click(`#drill-options button >> nth=${actions.findIndex((a) => same(a, taken.action))}`);
    await page.waitForFunction(() => document.querySelector("#drill-answer").dataset.cost !== undefined, null, { timeout: STUCK_MS });
    const cost = Number(await page.getAttribute("#drill-answer", "data-cost"));
    const value = (o) => o.p ?? o.ev;
    assert.ok(Math.abs(cost - (value(answer.options[0]) - value(taken))) < 1e-9, `${game}: the drill's cost ${cost}`);
    assert.equal(cost === 0, pick === "best");
    const said = await page.textContent("#drill-answer");
    assert.match(said, pick === "best" ? /^Right: / : / gives away .*; the best is /);
    // The coach's reason for the mistake in the game, as its review gave it.
    const why = "; why, in each box's expected points (the best less yours): ";
    assert.ok(reasons.some((r) => said.endsWith(`${why}${r}).`)), `${game}: the drill's answer gives the coach's reason\n${said}\n${reasons.join("\n")}`);
    answered.push(pick);
  }
  assert.equal(await count(), kept - 1, `${game}: the drill answered best is done, the other waits again`);
  // Kept in the browser: after a reload (the drills shown once the page
  // has its review code: at a game's end, or after the first advice).
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#state").dataset.phase, null, { timeout: STUCK_MS });
  if ((await page.getAttribute("#state", "data-phase")) === "roll") await page.click("#roll");
  await page.waitForFunction((n) => document.querySelector("#drills")?.dataset.count === String(n), kept - 1, { timeout: STUCK_MS });
  return { kept, answered };
}
