// The static site (`make site`: target/site) in a real browser, served by a
// plain static file server (node's http module below, not `reader serve`),
// on a 390 x 844 screen. Plays whole games of Yahtzee under each joker
// reading, one of Yatzy and one of yazy by always taking the advised
// action: before every decision, every option row (action and expected
// value) must be what `reader lookup GAME ... --json` answers for that
// state; the final total must be the sum of the boxes and bonuses; the
// review must list every decision with cost 0 and 0 lost. Then the Yahtzee
// game again with three deliberate mistakes, which the review must list
// with the costs the command line gives. The network is cut after the first
// advice of the first game. Then two-player 10000 under each preset, and the
// threes and one-throw 10000 advisors; a Maxi Yatzy game with one mistake
// (the swedish rules' table is not on the site: refused in one line); a
// Yatzy game already under way, with real dice, reloaded in the middle;
// the rule sets' tab (Generala for a goal, forced Yatzy against the
// computer and passing the dice, exact from its two-player table read in
// pieces), every option and chance the command line's. Saves target/browser/*.png.
//
//   READER=target/release/reader SITE=target/site node tests/browser/play_sheet.mjs [SEED]
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { strict as assert } from "node:assert";
import { serveFiles } from "../../crates/npm/test/range_server.mjs";
import { adviceMs, askAdvisors, coachText, drill, launch, median, play, playAgainst, playDuel, playRuleSet, playToReach, playUnderWay, seed } from "./common.mjs";

const site = process.env.SITE || "target/site";
const tables = join(site, "tables");
// Both joker readings' tables sit in one directory (yahtzee-free.dtab).
const tablesOf = () => tables;

/**
 * Whole games against the computer on the static site, each in a fresh
 * browser context (nothing cached): yazy (the two-player table), Yatzy and
 * Yahtzee (the target tables), each read in pieces over range requests;
 * every byte the page fetched counted (its files, the modules, every
 * table's header and chunks). Then the network cut after the first advice
 * of a yazy game: the page goes on from the chunks it holds, says in one
 * line when it needs one it cannot fetch, and goes on once the network is
 * back ("Try again"). Returns the summary line's part.
 */
async function playAgainstOnSite(browser) {
  const games = [["yazy", {}], ["yatzy", { first: "computer" }], ["yahtzee", {}]];
  const parts = [];
  for (const [game, options] of games) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    // Room to count every range request (the browser keeps 250 by default).
    await context.addInitScript(() => performance.setResourceTimingBufferSize(1_000_000));
    const page = await context.newPage();
    const timedBefore = adviceMs.length;
    const r = await playAgainst(page, base, tables, game, options);
    const later = adviceMs.slice(timedBefore).map(([ms]) => ms);
    const bytes = await page.evaluate(() =>
      [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")].reduce((n, e) => n + e.decodedBodySize, 0));
    assert.ok(bytes <= 25_000_000, `${game} against the computer: ${bytes} bytes fetched`);
    parts.push(`${game} ${r.result} (${r.totals.join(" to ")}; ${(bytes / 1e6).toFixed(1)} MB fetched in all, first advice ${Math.round(r.firstAdviceAt)} ms from navigation, later advice ${median(later)} ms median, ${Math.max(...later)} slowest, the computer's turn ${median(r.computerMs)} ms median, ${Math.max(...r.computerMs)} slowest)`);
    await context.close();
  }
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // The same yazy game with two mistakes, and two people at a table with both sheets filled in mid-way.
  const mistaken = await playAgainst(page, base, tables, "yazy", { mistakes: [4, 15] });
  const atTable = await playAgainst(page, base, tables, "yazy", {
    opponent: "table", reloadAt: 6,
    filled: [{ ones: "2", fives: "15", "full-house": "25" }, { sixes: "18", straight: "40" }],
  });
  assert.ok(mistaken.coach !== null, "yazy against the computer: the coach reviewed the game");
  parts.push(`yazy with two mistakes reviewed (${mistaken.decisions} decisions; the coach in each player's chance of winning as the CLI reviews it, beside the chance: ${mistaken.coach.reasons.join("; ")}), yazy at a table filled in mid-way and reloaded (${atTable.decisions} decisions)`);
  const reach = [await playToReach(page, base, tables, "yazy", 200, { mistakes: [6] }), await playToReach(page, base, tables, "yatzy", 250, { mistakes: [4] })];
  parts.push(`alone for a score: yazy for 200 with one mistake ${reach[0].total}, Yatzy for 250 with one mistake ${reach[1].total}, each reviewed by the coach in chance as the CLI reviews it (beside the chance: ${reach.map((r) => r.coach.reasons.join("; ")).join(" | ")})`);
  await page.goto(`${base}/?game=yazy&opponent=computer&new&seed=${seed + 1}`);
  await page.click("#roll");
  await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
  await context.setOffline(true);
  let offlineAdvice = 0;
  for (;;) {
    const advised = Number(await page.getAttribute("#state", "data-advised"));
    if ((await page.getAttribute("#state", "data-phase")) === "roll") await page.click("#roll");
    else await page.click("#options tbody tr >> nth=0");
    await page.waitForFunction((n) => {
      const s = document.querySelector("#state").dataset;
      return document.querySelector("#advice").classList.contains("error") || (s.mover === "you" && (s.phase === "roll" || Number(s.advised) > n));
    }, advised);
    if (await page.locator("#advice.error").count()) break;
    if ((await page.getAttribute("#state", "data-phase")) === "decide") offlineAdvice += 1;
  }
  const line = await page.textContent("#advice");
  assert.match(line, /^yazy-duel table: cannot fetch bytes \d+-\d+ of http:\/\/127\.0\.0\.1:\d+\/tables\/yazy-duel\.dtab: Failed to fetch$/);
  assert.ok(offlineAdvice > 0, "advice from the chunks held after the network was cut");
  await context.setOffline(false);
  const advised = Number(await page.getAttribute("#state", "data-advised"));
  await page.click("#retry");
  await page.waitForFunction((n) => Number(document.querySelector("#state").dataset.advised) > n, advised);
  await context.close();
  return `against the computer, tables read in pieces: ${parts.join(", ")}; network cut: ${offlineAdvice} advice from the chunks held, then "${line.replace(/\d{4,}/g, "N")}", and on again once back`;
}

// A plain static file server of the site, honouring Range as most do.
const server = await serveFiles({ "/": site });
const { base } = server;
const browser = await launch();
try {
  // Bytes and time before the first Yahtzee advice.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  // A browser already running, as a player's is; then the page, timed by
  // its own clock from navigation and its files counted as it loaded them.
  await page.goto("about:blank");
  await page.goto(`${base}/?seed=${seed}`);
  await page.click("#roll");
  await page.waitForFunction(() => document.querySelector("#advice").dataset.best !== "");
  const firstAdvice = Number(await page.getAttribute("#state", "data-at"));
  // What the page asked for before the first advice showed (the code it
  // fetches afterwards, as the review's, is not waited for).
  const files = await page.evaluate((at) =>
    [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
      .filter((e) => e.startTime < at).map((e) => [e.name, e.decodedBodySize]), firstAdvice);
  const bytes = files.reduce((s, [, n]) => s + n, 0);
  assert.ok(files.some(([url]) => url.endsWith("/tables/yahtzee.dtab")), "the yahtzee table was fetched");
  assert.ok(bytes <= 1_500_000, `${bytes} bytes before the first advice: ${JSON.stringify(files)}`);

  const results = [];
  const yahtzees = { 1: "55555", 4: "55555" };
  results.push(["yahtzee forced", await play(page, base, tablesOf, "yahtzee", "forced", { offlineAfterFirst: true, context, typed: yahtzees, undoAt: 2 })]);
  await context.setOffline(false);
  results.push(["yahtzee free", await play(page, base, tablesOf, "yahtzee", "free", { typed: yahtzees })]);
  // The second Yahtzee of fives, the fives box open: the forced reading offers
  // only that box, the free one any box.
  assert.deepEqual(results[0][1].jokerBoxes, ["fives"], "forced joker reading");
  assert.ok(results[1][1].jokerBoxes.length > 1 && results[1][1].jokerBoxes.includes("fives"), `free joker reading: ${results[1][1].jokerBoxes}`);
  results.push(["yatzy", await play(page, base, tablesOf, "yatzy", "forced")]);
  const mistaken = await play(page, base, tablesOf, "yatzy", "forced", { mistakes: [3, 10, 20] });
  const drilled = await drill(page, tablesOf("forced"), "yatzy", mistaken.mistaken, mistaken.coach.reasons);
  // yazy with two mistakes: the coach (the backend's review, yazy-parts.dtab fetched on the first) as the CLI reviews it.
  const yazy = await play(page, base, tablesOf, "yazy", "forced", { mistakes: [2, 9] });
  assert.ok(yazy.coach !== null, "yazy: the coach reviewed the game");
  results.push([`yazy (two mistakes, the coach as the CLI reviews it: rating ${Math.round(yazy.coach.rating)}, why: ${yazy.coach.reasons.join("; ")})`, yazy]);
  // Maxi Yatzy: its tab fetches the whole reader's module and its table
  // only when it opens; one mistake, reviewed and pasted back.
  // The coach where the site holds its parts table (read in pieces), else its line says it lacks it.
  const rangesBefore = server.ranges.length;
  const maxi = await play(page, base, tablesOf, "maxi-yatzy", "finnish", { mistakes: [7] });
  // What the coach read in pieces: the range requests of Maxi Yatzy's tables.
  const maxiRanges = server.ranges.slice(rangesBefore).filter((r) => r.startsWith("/tables/maxi-yatzy"));
  const maxiBytes = maxiRanges.reduce((n, r) => n + (([a, b]) => b - a + 1)(r.split(" ")[1].split("-").map(Number)), 0);
  if (maxi.coach.missing !== undefined) assert.equal(maxiRanges.length, 0, "maxi-yatzy: nothing read in pieces without the parts table");
  const inPieces = maxiRanges.length ? `, ${maxiRanges.length} range requests, ${(maxiBytes / 1e6).toFixed(1)} MB` : "";
  results.push([`maxi-yatzy finnish (one mistake, reviewed and pasted back; ${coachText(maxi.coach)}${inPieces})`, maxi]);
  assert.match(await page.textContent("#source"), /^Maxi Yatzy, finnish rules: answered from tables\/maxi-yatzy\.dtab /);
  // The swedish table is not on the static site: the page says so in one line.
  await page.goto(`${base}/?game=maxi-yatzy&rules=swedish&new&seed=${seed}`);
  await page.click("#roll");
  await page.waitForFunction(() => document.querySelector("#advice").classList.contains("error"));
  assert.match(await page.textContent("#advice"), /maxi-yatzy-swedish\.dtab/);
  assert.equal(await page.locator("#options tbody tr").count(), 0, "no options from the wrong table");
  const against = await playAgainstOnSite(browser);
  const underWay = await playUnderWay(page, base, tables);
  results.push(["yatzy under way with real dice (sheet filled in, reloaded mid-game; a pasted game taken up)", underWay]);
  const duels = [await playDuel(page, base, tables, "seed", "you", 2), await playDuel(page, base, tables, "cardgames", "table")];
  await askAdvisors(page, base, tables);
  const duelText = duels.map((d) => `${d.result} (${d.totals}; ${d.decisions} decisions, ${d.mistakes} deliberate mistakes, accuracy ${d.accuracy.toFixed(1)} by the coach as the CLI reviews it${d.drilled ? `; ${d.drilled.kept} kept as drills, one answered as in the game costing the review's loss, one answered best and done, the rest still kept after a reload` : ""})`).join(", ");
  // The rule sets' tab: the presets' own tables fetched when it is first
  // shown, their target and two-player tables read in pieces: Generala for
  // a goal, forced Yatzy exactly against the computer and passing the dice.
  // Generala for a goal with two deliberate mistakes, reviewed in the chance
  // of reaching it (its target table opened whole for the review).
  const forGoal = await playRuleSet(page, base, tables, "generala", { goal: 150, mistakes: [1, 4] });
  const ruleSets = [
    [`Generala for 150 or more with ${forGoal.review.mistakes} mistakes reviewed in chance as the CLI reviews it (beside the chance: ${forGoal.review.reasons.join("; ")}), again pasted,`, forGoal],
    ["forced Yatzy against the computer", await playRuleSet(page, base, tables, "forced-yatzy", { players: "computer" })],
  ];
  // Passing the dice with two deliberate mistakes, reviewed in each
  // player's chance of winning (its two-player table read in pieces).
  const passing = await playRuleSet(page, base, tables, "forced-yatzy", { players: 2, mistakes: [1, 4] });
  ruleSets.push([`forced Yatzy passing the dice with ${passing.review.mistakes} mistakes reviewed in each player's chance of winning as the CLI reviews it (beside the chance: ${passing.review.reasons.join("; ")}), again pasted,`, passing]);
  assert.deepEqual(ruleSets.map(([, r]) => [r.targetOffered, r.exact]), [[true, false], [true, true], [true, true]], "a goal offered, two players of forced Yatzy exact");
  // Crag alone with three deliberate mistakes, reviewed in the page (its
  // own table and its parts table opened whole for the review).
  const crag = await playRuleSet(page, base, tables, "crag", { mistakes: [1, 5, 9] });
  ruleSets.push([`Crag with ${crag.review.mistakes} mistakes reviewed as the CLI reviews it (why: ${crag.review.reasons.join("; ")}), again pasted,`, crag]);
  const ruleText = ruleSets.map(([what, r]) => `${what} ${r.second === null ? r.total : `${r.total} to ${r.second}`} in ${r.decisions} decisions`).join(", ");
  // Opened from disk, the page says in one line that it must be served.
  await page.goto(pathToFileURL(resolve(site, "index.html")).href);
  const fromDisk = await page.textContent("#source");
  assert.match(fromDisk, /^This page must be served, not opened from disk: run reader serve/);
  const slowest = adviceMs.reduce((a, b) => (b[0] > a[0] ? b : a));
  const summary = results.map(([g, r]) => `${g} ${r.total} in ${r.decisions} decisions${r.bonuses ? ` (${r.bonuses} Yahtzee bonus)` : ""}`).join(", ");
  console.log(`browser: static site: ${summary}, every option the CLI's, review cost 0; ${against}; a Yatzy game with three mistakes reviewed (${mistaken.decisions} decisions; the coach as the CLI reviews it, rating ${Math.round(mistaken.coach.rating)}, why: ${mistaken.coach.reasons.join("; ")}), and again pasted as text, its ${drilled.kept} mistakes kept as drills, each answer with the coach's reason (one answered best, done; one answered worst, kept; still there after a reload); two-player 10000: ${duelText}, every chance the CLI's; rule sets: ${ruleText}, every option and chance the CLI's; threes and one-throw 10000 advisors the CLI's; opened from disk, it says it must be served; ${bytes} bytes and ${Math.round(firstAdvice)} ms from navigation to the first advice (the page's clock), later advice (tap to advice, as the page measures it) median ${median(adviceMs.map(([ms]) => ms))} ms, slowest ${slowest[0]} ms (${slowest[1]})`);
} finally {
  await browser.close();
  await server.close();
}
