// The page `reader serve` serves (the same page as the static site's, with
// answers from the server's HTTP API) in a real browser on a 390 x 844
// screen: whole games of yazy, Yahtzee and Maxi Yatzy taking the advised action, every
// option row checked against `reader lookup --json` from the served tables,
// totals and the review checked (Yahtzee's with two deliberate mistakes,
// which the served coach lists as the CLI reviews the game); the joker reading the served table was not
// solved under, and against the computer on a server without the target
// tables, offered as unavailable with the server's reason; a whole two-player 10000
// game; the threes and one-throw 10000 advisors; whole games of two rule
// sets the server holds (Generala, Yacht Dice) from their tab, and of
// Generala played for 150 or more (two deliberate mistakes, reviewed in the
// chance of reaching it) and by two players passing the dice, from
// its target table; and a rule set that saves a turn's unused rerolls
// (tests/rules/saver.toml), solved by the generator, from its own server. Saves
// target/browser/*.png.
//
//   READER=target/release/reader GENERATOR=target/release/generator DICE_TABLES=tables \
//     node tests/browser/play_served.mjs [SEED]
//
// Exit status 0 when every check passed; 1 with the failed check otherwise.
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { strict as assert } from "node:assert";
import { adviceMs, askAdvisors, coachText, launch, median, play, playAgainst, playDuel, playRuleSet, playToReach, playUnderWay, reader, seed } from "./common.mjs";

const tables = process.env.DICE_TABLES || "tables";
const generator = process.env.GENERATOR || join(dirname(reader), "generator");

/** A rule set only the tests write whose turns save the rerolls they leave unused. */
const savingRules = fileURLToPath(new URL("../rules/saver.toml", import.meta.url));

/** Starts `reader serve` of `dir` on a free loopback port; resolves to its base URL. */
function startServer(dir = tables) {
  const server = spawn(reader, ["serve", "--tables", dir, "--addr", "127.0.0.1:0"], {
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
    // Reading and checking every table first: seconds, a minute with the
    // swedish Maxi Yatzy table (1.5 GB) in the directory.
    setTimeout(() => reject(new Error("reader serve did not say where it listens within 120 s")), 120_000);
  });
  return { server, base };
}

/**
 * Opens `link`, which asks for a choice the served tables cannot answer:
 * the note says so (`note`, and the server's command `how` in its detail),
 * the `disabled` options are, the setup shows `setUp`, and the game plays
 * from the tables there are (a roll is answered).
 */
async function expectUnavailable(page, link, { note, how, disabled, setUp }) {
  await page.goto(link);
  await page.waitForSelector("#unavailable:not([hidden])");
  assert.equal(await page.textContent("#unavailable-text"), note);
  const said = await page.textContent("#unavailable-how");
  if (how instanceof RegExp) assert.match(said, how);
  else assert.equal(said, how);
  for (const option of disabled) assert.equal(await page.$eval(option, (o) => o.disabled), true, option);
  for (const [select, value] of Object.entries(setUp)) assert.equal(await page.$eval(select, (s) => s.value), value, select);
  await page.click("#roll");
  await page.waitForFunction(() => document.querySelector("#options tbody tr") !== null || document.querySelector("#advice").classList.contains("error"));
  assert.equal(await page.$eval("#advice", (a) => a.classList.contains("error")), false, await page.textContent("#advice"));
}

const { server, base } = startServer();
let browser;
let failed = false;
try {
  const url = await base;
  browser = await launch();
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  const served = () => tables;
  const yazy = await play(page, url, served, "yazy", "forced");
  // Yahtzee with two deliberate mistakes: the served coach (GET
  // /v1/review/yahtzee) lists exactly those, as the CLI reviews the text.
  const yahtzee = await play(page, url, served, "yahtzee", "forced", { mistakes: [2, 9] });
  assert.match(await page.textContent("#source"), /^Yahtzee, forced joker reading: answered from reader serve's yahtzee\.dtab \(blake3 [0-9a-f]{16}\)\.$/);

  // The served directory holds the forced reading's table only: the free
  // one is offered as unavailable, and a game asked with it is set up with
  // the forced reading, a note saying why (the server's command in its
  // detail), never answered from the wrong table.
  await expectUnavailable(page, `${url}/?game=yahtzee&joker=free&new&seed=${seed}`, {
    note: "The free joker reading: not available here, as this server does not have the table it needs (yahtzee-free); this game is set up without it.",
    how: "no table at yahtzee-free.dtab: `make tables` leaves it out: build it with `make yahtzee-free` (or `generator --games yahtzee-free`; `make optional-tables` builds it with others)",
    disabled: ['#joker option[value="free"]'],
    setUp: { "#joker": "forced", "#opponent": "" },
  });

  // Maxi Yatzy under the finnish rules (make tables writes it), and under the
  // swedish ones where the served directory holds that table (make
  // maxi-swedish); where not, refused with the server's reason.
  // One mistake: the served coach lists it as the CLI reviews the game
  // where the server holds maxi-yatzy-parts.dtab (make maxi-yatzy-parts),
  // else its line says the server lacks it.
  const maxi = await play(page, url, served, "maxi-yatzy", "finnish", { mistakes: [5] });
  let swedish;
  if (existsSync(join(tables, "maxi-yatzy-swedish.dtab"))) {
    const s = await play(page, url, served, "maxi-yatzy", "swedish");
    swedish = `swedish ${s.total} in ${s.decisions} decisions`;
  } else {
    await expectUnavailable(page, `${url}/?game=maxi-yatzy&rules=swedish&new&seed=${seed}`, {
      note: "The swedish rules: not available here, as this server does not have the table it needs (maxi-yatzy-swedish); this game is set up without it.",
      how: /^no table at maxi-yatzy-swedish\.dtab: .*`make maxi-swedish`/,
      disabled: ['#maxi-rules option[value="swedish"]'],
      setUp: { "#maxi-rules": "finnish" },
    });
    swedish = "the swedish rules offered as unavailable (no table)";
  }
  // A server without the target tables: playing against the computer, for
  // a score or two at a table offered as unavailable, and a link asking
  // for the computer sets up a game alone.
  const lean = join(process.env.TMPDIR || "/tmp", `dice-tables-lean-${process.pid}`);
  rmSync(lean, { recursive: true, force: true });
  mkdirSync(lean);
  symlinkSync(resolve(tables, "yatzy.dtab"), join(lean, "yatzy.dtab"));
  const leanServer = startServer(lean);
  try {
    await expectUnavailable(page, `${await leanServer.base}/?game=yatzy&opponent=computer&new&seed=${seed}`, {
      note: "Playing against the computer: not available here, as this server does not have the table it needs (yatzy-target); this game is set up without it.",
      how: "no table at yatzy-target.dtab: `make tables` leaves it out: build it with `make yatzy-target` (or `generator --games yatzy-target`; `make target-tables` builds it with others)",
      disabled: ['#opponent option[value="computer"]', '#opponent option[value="table"]', '#opponent option[value="target"]'],
      setUp: { "#opponent": "" },
    });
  } finally {
    leanServer.server.kill();
    rmSync(lean, { recursive: true, force: true });
  }
  const underWay = await playUnderWay(page, url, tables);
  // Against the computer (yazy from the two-player table, Yatzy and
  // Yahtzee from the advisor's target tables), and two people at a table.
  adviceMs.length = 0;
  const against = [
    ["yazy, you first", await playAgainst(page, url, tables, "yazy", { pointsAt: 3 })],
    ["yazy again with two mistakes", await playAgainst(page, url, tables, "yazy", { mistakes: [4, 15] })],
    ["Yatzy, the computer first", await playAgainst(page, url, tables, "yatzy", { first: "computer", pointsAt: 5 })],
    ["Yahtzee (forced joker), you first", await playAgainst(page, url, tables, "yahtzee", { mistakes: [9] })],
  ];
  const atTable = await playAgainst(page, url, tables, "yazy", {
    opponent: "table", reloadAt: 6,
    filled: [{ ones: "2", fives: "15", "full-house": "25" }, { sixes: "18", straight: "40" }],
  });
  const turnMs = against.flatMap(([, r]) => r.computerMs);
  const reach = [await playToReach(page, url, tables, "yazy", 200, { mistakes: [6] }), await playToReach(page, url, tables, "yatzy", 250, { mistakes: [4] })];
  assert.ok(against[1][1].coach !== null, "yazy against the computer: the served coach reviewed the game");
  const coachAgainst = (r) => (r.coach ? `; the coach in each player's chance of winning as the CLI reviews it, beside the chance: ${r.coach.reasons.join("; ")}` : "");
  const againstText = against.map(([what, r]) => `${what}: ${r.result} (${r.totals.join(" to ")}; ${r.decisions} decisions, the computer's ${r.computerSteps} steps the CLI's best${coachAgainst(r)})`).join(", ");
  const duel = await playDuel(page, url, tables, "seed", "table", 2);
  await askAdvisors(page, url, tables);
  const ruleSets = [
    await playRuleSet(page, url, tables, "generala", { mistakes: [1, 5, 9] }),
    await playRuleSet(page, url, tables, "yacht-dice"),
    await playRuleSet(page, url, tables, "generala", { goal: 150, mistakes: [1, 4] }),
    await playRuleSet(page, url, tables, "generala", { players: 2 }),
    await playRuleSet(page, url, tables, "generala", { players: "computer" }),
  ];
  // Two players of forced Yatzy exactly: its two-player table (make
  // reduced-target-tables writes it) served from a directory of its own
  // beside forced Yatzy's tables, so that the served directory's answers
  // (and the golden files asked of it) stay the advisor's.
  const exactDir = join(process.env.TMPDIR || "/tmp", `dice-tables-duel-${process.pid}`);
  rmSync(exactDir, { recursive: true, force: true });
  mkdirSync(exactDir);
  for (const f of ["forced-yatzy.dtab", "forced-yatzy-target.dtab", "forced-yatzy-parts.dtab"]) copyFileSync(join(tables, f), join(exactDir, f));
  copyFileSync(process.env.RULE_DUEL_TABLE || "target/reduced-tables/forced-yatzy-duel.dtab", join(exactDir, "forced-yatzy-duel.dtab"));
  const exactServer = startServer(exactDir);
  try {
    const exactUrl = await exactServer.base;
    // Passing the dice with two deliberate mistakes (one a player's), reviewed in each player's chance of winning.
    ruleSets.push(await playRuleSet(page, exactUrl, exactDir, "forced-yatzy", { players: 2, mistakes: [1, 4] }));
    ruleSets.push(await playRuleSet(page, exactUrl, exactDir, "forced-yatzy", { players: "computer" }));
  } finally {
    exactServer.server.kill();
    rmSync(exactDir, { recursive: true, force: true });
  }
  assert.deepEqual(ruleSets.map((r) => r.targetOffered), [true, false, true, true, true, true, true], "a goal and a second player offered where the server holds the rule set's target table");
  assert.deepEqual(ruleSets.map((r) => r.exact), [false, false, false, false, false, true, true], "two players of forced Yatzy exact (its two-player table served), of Generala the advisor's estimate");
  // The rule set that saves rerolls, solved here and served alone (as a
  // user serves their own rules): the sheet games say their tables are not
  // there, and its tab plays games, each with dice of its own, until a turn
  // has rerolls an earlier one saved (300 games simulated from the table:
  // 3.7 % have none, so four in a row about 2e-6).
  const saving = join(process.env.TMPDIR || "/tmp", `dice-tables-saving-${process.pid}`);
  rmSync(saving, { recursive: true, force: true });
  mkdirSync(saving);
  execFileSync(generator, ["--rules", savingRules, "--out", saving], { stdio: "ignore" });
  const savingServer = startServer(saving);
  const saverGames = [];
  try {
    const savingUrl = await savingServer.base;
    await page.goto(`${savingUrl}/?seed=${seed}`);
    await page.waitForSelector("#unavailable:not([hidden])");
    assert.equal(
      await page.textContent("#unavailable-text"),
      "This game: not available here, as this server does not have the table it needs (yahtzee); choose another game.",
    );
    while (saverGames.length < 4 && !saverGames.some((g) => g.mostRerolls > 1)) {
      saverGames.push(await playRuleSet(page, savingUrl, saving, "saver", { diceSeed: seed + saverGames.length }));
    }
  } finally {
    savingServer.server.kill();
    rmSync(saving, { recursive: true, force: true });
  }
  assert.ok(saverGames.some((g) => g.mostRerolls > 1), "a turn of the saving rule set had rerolls an earlier turn saved");
  assert.deepEqual(pageErrors, [], "the page raised no errors");
  console.log(`browser: reader serve's page: yazy ${yazy.total} in ${yazy.decisions} decisions, Yahtzee ${yahtzee.total} in ${yahtzee.decisions} with two mistakes reviewed by the served coach as the CLI reviews it (rating ${Math.round(yahtzee.coach.rating)}, why: ${yahtzee.coach.reasons.join("; ")}), Maxi Yatzy finnish ${maxi.total} in ${maxi.decisions} with one mistake (${coachText(maxi.coach)}), ${swedish}, Yatzy under way with real dice ${underWay.total} in ${underWay.decisions} (reloaded mid-game), every option the CLI's, review cost 0 but for the deliberate mistakes; against the computer: ${againstText}; every chance and option row the CLI's, reviews listing exactly the mistakes; the computer's whole turn ${median(turnMs)} ms median, ${Math.max(...turnMs)} ms slowest; later advice median ${median(adviceMs.map(([ms]) => ms))} ms, slowest ${Math.max(...adviceMs.map(([ms]) => ms))} ms; yazy at a table, both sheets filled in mid-way, reloaded: ${atTable.result} in ${atTable.decisions} decisions, the advice switching sides each turn; alone for a score, every chance the CLI's --need: yazy for 200 with one mistake ${reach[0].total}, Yatzy for 250 with one mistake ${reach[1].total}, each reviewed by the coach in chance as the CLI reviews it (beside the chance: ${reach.map((r) => r.coach.reasons.join("; ")).join(" | ")}); the free joker reading, and against the computer without the target tables, offered as unavailable; two-player 10000: ${duel.result} (${duel.decisions} decisions), every chance the CLI's, ${duel.mistakes} deliberate mistakes reviewed by the coach as the CLI reviews it (accuracy ${duel.accuracy.toFixed(1)}), ${duel.drilled.kept} kept as drills (one answered as in the game, costing the review's loss; one answered best, done; the rest still kept after a reload); threes and one-throw 10000 advisors the CLI's; rule sets the server holds, from their tab: Generala ${ruleSets[0].total} in ${ruleSets[0].decisions} decisions with ${ruleSets[0].review.mistakes} deliberate mistakes, reviewed as the CLI reviews it (${ruleSets[0].review.loss.toFixed(2)} points given away; why: ${ruleSets[0].review.reasons.join("; ")}), again pasted, Yacht Dice ${ruleSets[1].total} in ${ruleSets[1].decisions}, Generala for 150 or more ${ruleSets[2].total} in ${ruleSets[2].decisions} (every chance the CLI's --need) with ${ruleSets[2].review.mistakes} deliberate mistakes, reviewed in chance as the CLI reviews it (beside the chance: ${ruleSets[2].review.reasons.join("; ")}), again pasted, two players passing the dice ${ruleSets[3].total} to ${ruleSets[3].second} in ${ruleSets[3].decisions} (every chance the CLI's opponent-aware advisor's), against the computer ${ruleSets[4].total} to ${ruleSets[4].second} in ${ruleSets[4].decisions}; forced Yatzy exactly from its two-player table, passing the dice ${ruleSets[5].total} to ${ruleSets[5].second} in ${ruleSets[5].decisions} with ${ruleSets[5].review.mistakes} deliberate mistakes, reviewed in each player's chance of winning as the CLI reviews it (beside the chance: ${ruleSets[5].review.reasons.join("; ")}), again pasted, against the computer ${ruleSets[6].total} to ${ruleSets[6].second} in ${ruleSets[6].decisions} (its every move the CLI's best); every option the CLI's; a rule set saving unused rerolls: ${saverGames.map((g) => g.total).join(", ")} in ${saverGames.length} game${saverGames.length === 1 ? "" : "s"}, up to ${Math.max(...saverGames.map((g) => g.mostRerolls))} rerolls a turn, every count saved the page's as the test's`);
} catch (e) {
  failed = true;
  console.error(`browser test failed: ${e.message}`);
} finally {
  if (browser) await browser.close();
  server.kill();
}
process.exit(failed ? 1 : 0);
