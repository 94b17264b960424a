// A rule set only this test writes, as a program using the npm package
// meets it: solved by `generator --rules FILE` (GENERATOR), its table given
// to openTables under the rule set's name, every answer exactly what
// `reader lookup --table FILE ... --json` (READER) prints; nothing about the
// rule set is in the package.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { openTables } from "dice-tables";
import { serveFiles } from "./range_server.mjs";
import { assertSameReview } from "./same_review.mjs";

const run = promisify(execFile);
const { GENERATOR, READER } = process.env;
assert.ok(GENERATOR && READER, "set GENERATOR and READER");

const RULES = `name = "stoop-dice"
dice = 4
rerolls = 1

[[box]]
name = "sixes"
kind = "face"
face = 6

[[box]]
name = "two-pairs"
kind = "pairs"
pairs = 2
score = "dice"

[[box]]
name = "run"
kind = "straight"
runs = [[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6]]
score = 15
first-roll = 5

[[box]]
name = "chance"
kind = "chance"
`;

const dir = await mkdtemp(join(tmpdir(), "rule-set-"));
try {
  await writeFile(join(dir, "stoop.toml"), RULES);
  await run(GENERATOR, ["--rules", join(dir, "stoop.toml"), "--with-target", "--with-duel", "--with-parts", "--out", join(dir, "tables")]);
  const table = join(dir, "tables", "stoop-dice.dtab");
  // Its target table is given under its file's name, and asked with a need.
  const target = join(dir, "tables", "stoop-dice-target.dtab");
  // Its parts table (why one option is better, box by box) under its file's name too.
  const parts = join(dir, "tables", "stoop-dice-parts.dtab");
  const tables = await openTables({ "stoop-dice": await readFile(table), "stoop-dice-target": await readFile(target), "stoop-dice-parts": await readFile(parts) });
  const queries = [
    {},
    { dice: "6634" },
    { mask: "sixes,run", dice: "2345", rerolls: "1" },
    { mask: "all,-sixes", dice: "1166", rerolls: "0" },
    { need: "40" },
    { mask: "sixes,run", dice: "2366", rerolls: "1", need: "25" },
  ];
  for (const query of queries) {
    const args = Object.entries(query).flatMap(([name, value]) => [`--${name}`, value]);
    const { stdout } = await run(READER, ["lookup", "--table", table, ...args, "--json"]);
    assert.deepEqual(await tables.lookup("stoop-dice", query), JSON.parse(stdout), JSON.stringify(query));
  }
  const served = await tables.lookup("stoop-dice", { mask: "run", dice: "2345" });
  assert.deepEqual(served.best, { category: "run", points: 15, first_roll: 5 });
  await assert.rejects(tables.lookup("stoop-dice", { dice: "12345" }), /stoop-dice rolls 4 dice/);
  await assert.rejects(tables.lookup("porch-dice", { dice: "123" }), /nor a rule set's table/);
  // A game of it reviewed: what `reader review` prints; no reference players' figures, so no rating.
  const game = "1266 keep 66\n3466 score sixes\n2345 score run\n1122 score two-pairs\n3456 score chance\n";
  await writeFile(join(dir, "game.txt"), game);
  const { stdout: reviewed } = await run(READER, ["review", "stoop-dice", join(dir, "game.txt"), "--tables", join(dir, "tables"), "--json"]);
  const review = tables.review("stoop-dice", game);
  assertSameReview(review, JSON.parse(reviewed), "stoop-dice's review");
  assert.equal(review.score, 12 + 20 + 6 + 18);
  assert.equal(review.rating, null);
  // The one mistake says why, from the parts table, as the command line does.
  assert.deepEqual(review.decisions[4].reason, { text: "chance +0.50", parts: review.decisions[4].reason.parts });
  assert.deepEqual(Object.keys(review.decisions[4].reason.parts).sort(), ["chance", "first-roll bonus", "run", "sixes", "two-pairs"]);
  assert.ok(review.decisions.slice(0, 4).every((d) => d.reason === undefined));
  assert.throws(() => tables.review("stoop-dice", "1266 keep 66\n1234 score sixes\n"), /^Error: line 2 \(1234 score sixes\): the dice do not hold the 66 kept$/);
  // A rule set that saves rerolls: the rerolls saved are asked as `saved`.
  const savingRules = RULES.replace('name = "stoop-dice"', 'name = "stoop-saver"')
    .replace("rerolls = 1\n", "rerolls = 1\nsaved-rerolls = true\n")
    .replace("first-roll = 5\n", "");
  await writeFile(join(dir, "saver.toml"), savingRules);
  await run(GENERATOR, ["--rules", join(dir, "saver.toml"), "--out", join(dir, "tables")]);
  const saver = join(dir, "tables", "stoop-saver.dtab");
  const saving = await openTables({ "stoop-saver": await readFile(saver) });
  const savedQueries = [
    { mask: "sixes,run", saved: "2" },
    { mask: "sixes,run", saved: "2", dice: "2366" },
    { mask: "run,chance", saved: "1", dice: "1234", rerolls: "1" },
  ];
  for (const query of savedQueries) {
    const args = Object.entries(query).flatMap(([name, value]) => [`--${name}`, value]);
    const { stdout } = await run(READER, ["lookup", "--table", saver, ...args, "--json"]);
    assert.deepEqual(await saving.lookup("stoop-saver", query), JSON.parse(stdout), JSON.stringify(query));
  }
  await assert.rejects(saving.lookup("stoop-saver", { saved: "1" }), /saved rerolls 1 is out of range/);
  // Its two-player table, read in pieces over range requests as a page
  // reads a big one, asked by the rule set's name with the opponent's sheet.
  const server = await serveFiles({ "/tables/": join(dir, "tables") });
  let duelQueries;
  try {
    const duel = await openTables({ "stoop-dice-duel": { url: `${server.base}/tables/stoop-dice-duel.dtab`, ranges: true } });
    const listed = duel.ruleSets();
    assert.deepEqual(listed.map((t) => [t.game, t.rule_set_name, t.duel]), [["stoop-dice-duel", "stoop-dice", true]]);
    assert.deepEqual(listed[0].boxes, ["sixes", "two-pairs", "run", "chance"]);
    assert.deepEqual(tables.ruleSets().map((t) => [t.game, t.parts ?? false]), [["stoop-dice", false], ["stoop-dice-target", false], ["stoop-dice-parts", true]]);
    duelQueries = [
      { "opp-mask": "all", me: "0", opp: "0" },
      { "opp-mask": "all", me: "0", opp: "0", dice: "2345", rerolls: "1" },
      { mask: "sixes,run", "opp-mask": "sixes,two-pairs,run", me: "14", opp: "9", dice: "6634", rerolls: "1" },
      { mask: "sixes,run", "opp-mask": "run", me: "14", opp: "25", dice: "1266", rerolls: "0" },
      { mask: "run", "opp-mask": "run,chance", me: "30", opp: "12", "to-move": "opp", dice: "3456" },
    ];
    for (const query of duelQueries) {
      const args = Object.entries(query).flatMap(([name, value]) => [`--${name}`, value]);
      const { stdout } = await run(READER, ["lookup", "stoop-dice", "--tables", join(dir, "tables"), ...args, "--json"]);
      const answer = await duel.lookup("stoop-dice", query);
      assert.equal(answer.exact, true, JSON.stringify(query));
      assert.deepEqual(answer, JSON.parse(stdout), JSON.stringify(query));
    }
    assert.ok(duel.fetched > 0 && server.ranges.every((r) => r.startsWith("/tables/stoop-dice-duel.dtab ")), server.ranges.join(", "));
    // A game against someone reviewed in each player's chance of winning,
    // the two-player table read in pieces: what `reader review` prints.
    const against = "1: 1266 keep 66\n1: 3466 score sixes\n2: 2345 score run\n1: 1122 score two-pairs\n2: 6634 keep 66\n"
      + "2: 1266 score sixes\n1: 2345 score run\n2: 1122 score two-pairs\n1: 3456 score chance\n2: 1111 score chance\n";
    await writeFile(join(dir, "against.txt"), against);
    const { stdout: cli } = await run(READER, ["review", "stoop-dice", join(dir, "against.txt"), "--tables", join(dir, "tables"), "--json"]);
    const reviewing = await openTables({
      "stoop-dice": await readFile(table),
      "stoop-dice-parts": await readFile(parts),
      "stoop-dice-duel": { url: `${server.base}/tables/stoop-dice-duel.dtab`, ranges: true },
    });
    assert.throws(() => reviewing.review("stoop-dice", against), /stoop-dice-duel table: this review needs bytes .* reviewFetching\(\) fetches them/);
    const both = await reviewing.reviewFetching("stoop-dice", against);
    assertSameReview(both, JSON.parse(cli), "stoop-dice's review against someone");
    assert.deepEqual(both.decisions.map((d) => d.player), [1, 1, 2, 1, 2, 2, 1, 2, 1, 2]);
    assert.deepEqual(both.scores, [12 + 6 + (15 + 5) + 18, (15 + 5) + 12 + 6 + 4]);
    assert.equal(both.outcome, 1);
  } finally {
    await server.close();
  }
  const asked = queries.length + savedQueries.length + duelQueries.length;
  console.log(`rule set: ${asked} lookups of tables only this test wrote (its two-player table read in pieces), as the reader answers them`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
