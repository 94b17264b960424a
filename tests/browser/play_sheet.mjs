// The static site (`make site`: target/site) in a real browser, served by a
// plain static file server (node's http module below, not `reader serve`),
// on a 390 x 844 screen. Plays whole games of Yahtzee under each joker
// reading and one of Yatzy by always taking the advised action: before
// every decision, every option row (action and expected value) must be
// what `reader lookup GAME ... --json` answers for that state; the final
// total must be the sum of the boxes and bonuses; the review must list
// every decision with cost 0 and 0 lost. Then the Yahtzee game again with
// three deliberate mistakes, which the review must list with the costs the
// command line gives. The network is cut after the first advice of the
// first game. Saves target/browser/sheet-*.png.
//
//   READER=target/release/reader SITE=target/site node tests/browser/play_sheet.mjs [SEED]
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { strict as assert } from "node:assert";
import { chromium } from "playwright-core";

const reader = process.env.READER || "target/release/reader";
const site = process.env.SITE || "target/site";
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const seed = Number(process.argv[2] || 2026);
const shots = "target/browser";
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

/** A plain static file server of `site` on a free loopback port. */
async function serve() {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(site, path.endsWith("/") ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** The command line's answer for a state the page shows. */
function cli(game, joker, q) {
  const args = ["lookup", game, "--mask", String(q.mask), "--upper", String(q.upper), "--dice", q.dice, "--rerolls", String(q.rerolls), "--json"];
  if (q["yahtzee-bonus"]) args.push("--yahtzee-bonus");
  args.push("--tables", join(site, joker === "free" ? "tables/free" : "tables"));
  return JSON.parse(execFileSync(reader, args, { encoding: "utf8" }));
}

/** Waits until the page shows an answer newer than `after`. */
async function nextAdvice(page, after) {
  await page
    .waitForFunction((n) => {
      const s = document.querySelector("#state").dataset;
      return (s.phase === "decide" && Number(s.advised) > n) || s.phase === "over" || s.phase === "roll";
    }, after, { timeout: 10_000 })
    .catch(async (e) => {
      throw new Error(`no advice: the page says "${await page.textContent("#advice")}" (${e.message})`);
    });
}

/** Plays a whole game; `mistakes`: decision numbers (1-based) where the first worse option is taken. */
// `typed`: turns (1-based) whose roll is typed in, as dice rolled at a table
// (two Yahtzees of fives, so that the second meets the joker rules);
// `undoAt`: a decision taken, undone, checked to be back, then taken again.
async function play(page, base, game, joker, { mistakes = [], offlineAfterFirst = false, context, typed = {}, undoAt } = {}) {
  await page.goto(`${base}/?game=${game}&joker=${joker}&seed=${seed}`);
  const state = page.locator("#state");
  let decisions = 0;
  let turns = 0;
  let jokerBoxes = null; // the boxes offered for a Yahtzee under the joker rules
  const costs = [];
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
      const t0 = Date.now();
      await nextAdvice(page, advised);
      adviceMs.push(Date.now() - t0);
      continue;
    }
    await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
    const q = JSON.parse(await state.getAttribute("data-query"));
    const answer = cli(game, joker, q);
    const shown = await page.$$eval("#options tbody tr", (rows) => rows.map((r) => [r.dataset.action, Number(r.dataset.ev)]));
    assert.deepEqual(shown, answer.options.map((o) => [JSON.stringify(o.action), o.ev]), `${game} ${JSON.stringify(q)}`);
    if (q.dice === "55555" && q.rerolls === 0 && q["yahtzee-bonus"]) jokerBoxes = shown.map(([a]) => JSON.parse(a).category);
    decisions += 1;
    if (decisions === 1 && offlineAfterFirst) await context.setOffline(true);
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
    }
    const action = answer.options[index].action;
    if (index === 0 && "category" in action) {
      await page.click(`button[data-score="${action.category}"]`);
    } else if (index === 0) {
      // Tap the dice to keep, then reroll (or keep all).
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
    const t0 = Date.now();
    await nextAdvice(page, advised);
    adviceMs.push(Date.now() - t0);
  }
  // The total is the boxes and the bonuses.
  const boxes = await page.$$eval("#sheet td[data-points]", (c) => c.map((x) => Number(x.dataset.points)));
  const upper = boxes.slice(0, 6).reduce((s, p) => s + p, 0);
  const bonuses = Number(await page.textContent("#yahtzee-bonuses"));
  const upperBonus = upper >= 63 ? (game === "yatzy" ? 50 : 35) : 0;
  const total = Number(await page.getAttribute("#total", "data-total"));
  assert.equal(boxes.length, game === "yatzy" ? 15 : 13);
  assert.equal(total, boxes.reduce((s, p) => s + p, 0) + upperBonus + bonuses, `${game} total`);
  // The review: every decision, with the costs of the mistakes only.
  const review = await page.$$eval("#review-table tbody tr", (rows) => rows.map((r) => Number(r.dataset.cost)));
  assert.equal(review.length, decisions);
  const listed = review.filter((c) => c > 0);
  assert.deepEqual(listed, costs, `${game}: the review's costs`);
  const lost = Number(await page.getAttribute("#review-summary", "data-lost"));
  assert.ok(Math.abs(lost - costs.reduce((s, c) => s + c, 0)) < 1e-9, `${game}: lost ${lost}`);
  if (mistakes.length) {
    // The game as the page writes it, pasted back: the same review.
    const text = await page.inputValue("#game-text");
    assert.equal(text.split("\n").length, decisions);
    await page.fill("#game-text", text);
    await page.click("#review-form button");
    await page.waitForFunction(() => document.querySelector("#review-summary").dataset.source === "pasted");
    const pasted = await page.$$eval("#review-table tbody tr", (rows) => rows.map((r) => Number(r.dataset.cost)));
    assert.deepEqual(pasted, review, "the pasted game's review");
    // A line that is not a decision is refused, naming the line.
    await page.fill("#game-text", `12345 score chance\n66666 score nothing`);
    await page.click("#review-form button");
    await page.waitForFunction(() => document.querySelector("#review-error").textContent !== "");
    assert.match(await page.textContent("#review-error"), /^line 2 \(66666 score nothing\): nothing is not an open box$/);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.ok(!overflow, "nothing overflows the screen's width");
  await page.screenshot({ path: `${shots}/sheet-${game}-${joker}${mistakes.length ? "-mistakes" : ""}-review.png`, fullPage: true });
  return { decisions, total, bonuses, jokerBoxes };
}

/** Plays a whole two-player 10000 game against the table's player, taking the best action. */
async function playDuel(page, base, rules, first) {
  await page.goto(`${base}/?game=duel&rules=${rules}&first=${first}&seed=${seed}`);
  const state = page.locator("#duel-state");
  const ready = async (after) => {
    await page.waitForFunction((n) => {
      const s = document.querySelector("#duel-state").dataset;
      return s.phase === "over" || (s.mover === "you" && s.query !== "" && Number(s.advised) > n);
    }, after, { timeout: 20_000 });
  };
  await ready(-1);
  let decisions = 0;
  for (;;) {
    if ((await state.getAttribute("data-phase")) === "over") break;
    const q = JSON.parse(await state.getAttribute("data-query"));
    const args = ["lookup", "duel", "--me", String(q.me), "--opp", String(q.opp), "--score", String(q.score), "--json"];
    if (q.remaining !== undefined) args.push("--remaining", String(q.remaining));
    if (q.dice !== undefined) args.push("--dice", q.dice);
    if (q.rules) args.push("--rules", q.rules);
    args.push("--tables", join(site, "tables"));
    const answer = JSON.parse(execFileSync(reader, args, { encoding: "utf8" }));
    assert.equal(Number(await state.getAttribute("data-p")), answer.p, `duel ${JSON.stringify(q)}`);
    const advised = Number(await state.getAttribute("data-advised"));
    decisions += 1;
    if (q.remaining !== undefined) {
      await page.click(answer.best === "bank" ? "#duel-bank" : "#duel-throw");
    } else {
      const shown = await page.$$eval("#duel-options tbody tr", (rows) => rows.map((r) => [r.dataset.keep, Number(r.dataset.p)]));
      assert.deepEqual(shown, answer.options.map((o) => [o.keep, o.p]), `duel ${JSON.stringify(q)}`);
      await page.click("#duel-options tbody tr >> nth=0");
    }
    await ready(advised);
  }
  const totals = await page.textContent("#duel-totals");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  assert.ok(!overflow, "nothing overflows the screen's width");
  await page.screenshot({ path: `${shots}/duel-${rules}.png`, fullPage: true });
  return { decisions, result: await page.textContent("#duel-advice"), totals };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** How long each later advice took to show, from the action's click (after the click returned). */
const adviceMs = [];

mkdirSync(shots, { recursive: true });
const { server, base } = await serve();
const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
try {
  // Bytes and time before the first Yahtzee advice.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const loaded = [];
  const count = (r) => loaded.push(r.body().then((b) => [r.url(), b.length]));
  page.on("response", count);
  const started = Date.now();
  await page.goto(`${base}/?seed=${seed}`);
  await page.click("#roll");
  await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
  const firstAdvice = Date.now() - started;
  page.off("response", count);
  const files = await Promise.all(loaded);
  const bytes = files.reduce((s, [, n]) => s + n, 0);
  assert.ok(files.some(([url]) => url.endsWith("/tables/yahtzee.dtab")), "the yahtzee table was fetched");
  assert.ok(bytes <= 1_500_000, `${bytes} bytes before the first advice: ${JSON.stringify(files)}`);

  const results = [];
  const yahtzees = { 1: "55555", 4: "55555" };
  results.push(["yahtzee forced", await play(page, base, "yahtzee", "forced", { offlineAfterFirst: true, context, typed: yahtzees, undoAt: 2 })]);
  await context.setOffline(false);
  results.push(["yahtzee free", await play(page, base, "yahtzee", "free", { typed: yahtzees })]);
  // The second Yahtzee of fives, the fives box open: the forced reading offers
  // only that box, the free one any box.
  assert.deepEqual(results[0][1].jokerBoxes, ["fives"], "forced joker reading");
  assert.ok(results[1][1].jokerBoxes.length > 1 && results[1][1].jokerBoxes.includes("fives"), `free joker reading: ${results[1][1].jokerBoxes}`);
  results.push(["yatzy", await play(page, base, "yatzy", "forced")]);
  const mistaken = await play(page, base, "yahtzee", "forced", { mistakes: [3, 10, 20] });
  const duels = [await playDuel(page, base, "seed", "you"), await playDuel(page, base, "cardgames", "table")];
  const duelText = duels.map((d) => `${d.result} (${d.totals}; ${d.decisions} decisions)`).join(", ");
  const summary = results.map(([g, r]) => `${g} ${r.total} in ${r.decisions} decisions (${r.bonuses} Yahtzee bonus)`).join(", ");
  console.log(`browser: static site: ${summary}, every option the CLI's, review cost 0; three mistakes reviewed (${mistaken.decisions} decisions), and again pasted as text; two-player 10000: ${duelText}, every chance the CLI's; ${bytes} bytes and ${firstAdvice} ms to the first advice, later advice median ${median(adviceMs)} ms, slowest ${Math.max(...adviceMs)} ms`);
} finally {
  await browser.close();
  server.close();
}
