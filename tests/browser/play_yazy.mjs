// The web page of `reader serve` in a real browser: Debian's chromium,
// headless, driven by playwright-core (no browser download). On a phone-sized
// screen it plays a whole game of yazy by always taking the advised action,
// checks that every advice and option list shown is the API's answer for
// that state, that nothing was lost to optimal play, and that the final
// score is the sum of the scored boxes; then asks the threes and 10000
// advisors once each. Saves target/browser/*.png for a person to look at.
//
//   READER=target/release/reader DICE_TABLES=tables node tests/browser/play_yazy.mjs [SEED]
//
// Exit status 0 when every check passed; 1 with the failed check otherwise.

import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { strict as assert } from "node:assert";
import { chromium } from "playwright-core";

const reader = process.env.READER || "target/release/reader";
const tables = process.env.DICE_TABLES || "tables";
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";
const seed = Number(process.argv[2] || 2026);
const shots = "target/browser";

/** Starts `reader serve` on a free loopback port; resolves to its base URL. */
function startServer() {
  const server = spawn(reader, ["serve", "--tables", tables, "--addr", "127.0.0.1:0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const base = new Promise((resolve, reject) => {
    let seen = "";
    server.stdout.on("data", (d) => {
      seen += String(d);
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`reader serve exited with status ${code}`)));
    setTimeout(() => reject(new Error("reader serve did not say where it listens within 20 s")), 20_000);
  });
  return { server, base };
}

async function api(base, game, params) {
  const response = await fetch(`${base}/v1/lookup/${game}?${new URLSearchParams(params)}`);
  assert.equal(response.status, 200, `${game} ${JSON.stringify(params)}: HTTP ${response.status}`);
  return response.json();
}

async function playYazy(page, base) {
  await page.goto(`${base}/?seed=${seed}`);
  const state = page.locator("#yazy-state");
  let decisions = 0;
  let scoredPoints = 0;
  for (;;) {
    const phase = await state.getAttribute("data-phase");
    if (phase === "over") break;
    if (phase === "roll") {
      const advised = Number(await state.getAttribute("data-advised"));
      await page.click("#roll");
      await page.waitForFunction((n) => Number(document.querySelector("#yazy-state").dataset.advised) > n, advised);
    }
    const [mask, dice, rerolls] = await Promise.all(["data-mask", "data-dice", "data-rerolls"].map((a) => state.getAttribute(a)));
    const answer = await api(base, "yazy", { mask, dice, rerolls });

    // What the page shows is the API's answer, option by option.
    const shown = await page.$$eval("#options tbody tr", (rows) => rows.map((r) => [r.dataset.action, Number(r.dataset.ev)]));
    const expected = answer.options.map((o) => [JSON.stringify(o.action), o.ev]);
    assert.deepEqual(shown, expected, `options shown for mask ${mask}, dice ${dice}, ${rerolls} rerolls`);
    assert.equal(await page.getAttribute("#advice", "data-best"), JSON.stringify(answer.best), "the advice shown");
    decisions += 1;
    if (decisions === 5) await page.screenshot({ path: `${shots}/yazy-decision.png`, fullPage: true });

    const advised = Number(await state.getAttribute("data-advised"));
    const best = answer.best;
    if ("category" in best) {
      scoredPoints += best.points;
      await page.click(`button[data-score="${best.category}"]`);
      await page.waitForFunction(
        (c) => document.querySelector(`#sheet tr[data-category="${c}"] td[data-points]`) !== null,
        best.category,
      );
      continue;
    }
    // Tap the dice of the advised keep, then reroll.
    const left = best.keep.split("");
    const faces = await page.$$eval("#yazy-state .die", (ds) => ds.map((d) => d.textContent));
    for (let i = 0; i < faces.length; i++) {
      const at = left.indexOf(faces[i]);
      if (at >= 0) {
        left.splice(at, 1);
        await page.click(`#yazy-state .die[data-index="${i}"]`);
      }
    }
    assert.equal(left.length, 0, `the dice ${dice} hold the keep ${best.keep}`);
    await page.click("#reroll");
    await page.waitForFunction((n) => Number(document.querySelector("#yazy-state").dataset.advised) > n, advised);
  }

  const boxes = await page.$$eval("#sheet td[data-points]", (tds) => tds.map((td) => Number(td.dataset.points)));
  const total = Number(await page.textContent("#total"));
  assert.equal(boxes.length, 11, "every box scored");
  assert.equal(total, boxes.reduce((a, b) => a + b, 0), "the total is the sum of the boxes");
  assert.equal(total, scoredPoints, "the boxes hold the points the API gave");
  assert.equal(await page.textContent("#lost"), "0.00", "optimal play loses nothing");
  assert.ok(decisions >= 11 && decisions <= 33, `${decisions} decisions`);
  await page.screenshot({ path: `${shots}/yazy.png`, fullPage: true });
  return { total, decisions };
}

async function adviseThrees(page, base) {
  await page.click('.tab[data-tab="threes"]');
  await page.fill('#threes-form input[name="dice"]', "31324");
  await page.fill('#threes-form input[name="after"]', "3");
  await page.click("#threes-form button");
  const answer = await api(base, "threes", { dice: "31324", points: 0, after: 3, ties: "win", model: "sequential" });
  await page.waitForFunction(() => document.querySelector("#threes-advice").textContent.startsWith("Best"));
  assert.match(await page.textContent("#threes-advice"), new RegExp(`^Best: keep ${answer.best.keep}:`));
  assert.equal(await page.locator("#threes-options tbody tr").count(), answer.options.length);
  // A bad throw shows the server's message.
  await page.fill('#threes-form input[name="dice"]', "313245");
  await page.click("#threes-form button");
  await page.waitForFunction(() => document.querySelector("#threes-advice").classList.contains("error"));
  assert.match(await page.textContent("#threes-advice"), /dice given/);
  await page.screenshot({ path: `${shots}/threes.png`, fullPage: true });
}

async function adviseTenk(page, base) {
  await page.click('.tab[data-tab="tenk"]');
  await page.fill('#tenk-form input[name="dice"]', "155");
  await page.fill('#tenk-form input[name="score"]', "300");
  await page.fill('#tenk-form input[name="me"]', "2500");
  await page.fill('#tenk-form input[name="opp"]', "4000");
  await page.click("#tenk-form button");
  const answer = await api(base, "duel", { me: 2500, opp: 4000, dice: "155", score: 300, rules: "seed" });
  await page.waitForFunction(() => document.querySelector("#tenk-advice").textContent.startsWith("Best"));
  const text = await page.textContent("#tenk-advice");
  assert.ok(text.startsWith(`Best: keep ${answer.best.keep} for ${answer.best.points}, then ${answer.best.then}`), text);
  assert.equal(await page.locator("#tenk-options tbody tr").count(), answer.options.length);
  await page.screenshot({ path: `${shots}/tenk.png`, fullPage: true });
}

const { server, base } = startServer();
let browser;
let failed = false;
try {
  const url = await base;
  mkdirSync(shots, { recursive: true });
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  const { total, decisions } = await playYazy(page, url);
  await adviseThrees(page, url);
  await adviseTenk(page, url);
  assert.deepEqual(pageErrors, [], "the page raised no errors");
  // A phone-sized screen: nothing wider than the viewport.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide on a 390 px screen`);
  console.log(`browser: yazy game (seed ${seed}) scored ${total} in ${decisions} decisions, every advice the API's; threes and 10000 advisors ok; screenshots in ${shots}/`);
} catch (e) {
  failed = true;
  console.error(`browser test failed: ${e.message}`);
} finally {
  if (browser) await browser.close();
  server.kill();
}
process.exit(failed ? 1 : 0);
