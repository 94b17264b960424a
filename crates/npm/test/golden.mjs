// The npm package as a program installs it (from the tarball `npm pack`
// makes, into a scratch project: `make npm-test`): every golden lookup and
// every golden refusal of tests/golden/ gives the same answer and the same
// message as the reader. Environment: GOLDEN (tests/golden), DICE_TABLES
// (the tables `make tables` writes), DICE_TARGET_TABLES (the reduced target
// tables of `make reduced-target-tables`).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { openTables } from "dice-tables";

const golden = process.env.GOLDEN;
const tablesDir = process.env.DICE_TABLES;
const targetDir = process.env.DICE_TARGET_TABLES;
assert.ok(golden && tablesDir && targetDir, "set GOLDEN, DICE_TABLES and DICE_TARGET_TABLES");
const read = async (name) => JSON.parse(await readFile(join(golden, name), "utf8"));

// Bytes for some tables, URLs (file: here) for others: both are accepted.
const file = (dir, game) => new URL(`file://${join(dir, `${game}.dtab`)}`);
const bytes = async (dir, game) => readFile(join(dir, `${game}.dtab`));
const started = performance.now();
const tables = await openTables({
  yazy: await bytes(tablesDir, "yazy"),
  "yazy-target": file(tablesDir, "yazy-target"),
  combo: await bytes(tablesDir, "combo"),
  threes: file(tablesDir, "threes"),
  tenk: await bytes(tablesDir, "tenk"),
  yatzy: file(tablesDir, "yatzy"),
  yahtzee: await bytes(tablesDir, "yahtzee"),
  duel: file(tablesDir, "duel"),
  "duel-cardgames": await bytes(tablesDir, "duel-cardgames"),
  "maxi-yatzy": file(tablesDir, "maxi-yatzy"),
});
const targets = await openTables({
  yatzy: file(targetDir, "yatzy"),
  yahtzee: file(targetDir, "yahtzee"),
  "yatzy-target": file(targetDir, "yatzy-target"),
  "yahtzee-target": file(targetDir, "yahtzee-target"),
  // Two-player yazy, reduced to the categories of tests/golden/yazy-duel.json.
  "yazy-duel": file(targetDir, "yazy-duel"),
});
console.log(`opened ${tables.games.length + targets.games.length} tables in ${(performance.now() - started).toFixed(0)} ms`);

let answered = 0;
const argumentNames = new Set();
for (const game of ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "maxi-yatzy"]) {
  const { lookups } = await read(`${game}.json`);
  assert.ok(lookups.length >= 300, `${game}: ${lookups.length} golden lookups`);
  for (const { query, answer } of lookups) {
    Object.keys(query).forEach((k) => argumentNames.add(k));
    assert.deepStrictEqual(await tables.lookup(game, query), answer, `${game} ${JSON.stringify(query)}`);
    answered++;
  }
}
const target = await read("target.json");
for (const { game, query, answer } of target.lookups) {
  Object.keys(query).forEach((k) => argumentNames.add(k));
  assert.deepStrictEqual(targets.lookupSync(game, query), answer, `${game} ${JSON.stringify(query)}`);
  answered++;
}
const duel = await read("yazy-duel.json");
assert.ok(duel.lookups.length >= 200, `yazy-duel: ${duel.lookups.length} golden lookups`);
for (const { query, answer } of duel.lookups) {
  Object.keys(query).forEach((k) => argumentNames.add(k));
  assert.deepStrictEqual(targets.lookupSync("yazy", query), answer, `yazy ${JSON.stringify(query)}`);
  answered++;
}
// Without its table, a two-player lookup names what is missing.
await assert.rejects(tables.lookup("yazy", { mask: "yazy", "opp-mask": "yazy", me: 0, opp: 0 }), /yazy-duel/);

// A refusal's message names arguments as the query does: each `--NAME`
// that is a lookup argument loses its dashes (tests/golden/README.md).
const inQueryTerms = (message) =>
  message.replace(/--([a-z][a-z-]*[a-z])/g, (all, name) => (argumentNames.has(name) ? name : all));
const { refused } = await read("refused.json");
assert.ok(refused.length >= 50);
refused.forEach(({ query }) => Object.keys(query).forEach((k) => argumentNames.add(k)));
for (const { game, query, error } of refused) {
  await assert.rejects(tables.lookup(game, query), (e) => {
    assert.ok(e instanceof Error);
    assert.equal(e.message, inQueryTerms(error), `${game} ${JSON.stringify(query)}`);
    return true;
  });
}

// What the package itself refuses, before the lookup layer.
await assert.rejects(tables.lookup("yahtzee", { mask: "all", upper: [0] }), TypeError);
await assert.rejects(tables.lookup("yahtzee", {}), /yahtzee lookups need mask/);
await assert.rejects(tables.lookup("yahtzee", { mask: "all,-ones" }), /yahtzee lookups need upper once an upper box is filled/);
// With ones to sixes all open, the upper total can only be 0: it may be left out.
assert.deepEqual(await tables.lookup("yahtzee", { mask: "all" }), await tables.lookup("yahtzee", { mask: "all", upper: 0 }));
await assert.rejects(openTables({ yahtzee: new Uint8Array(10) }), /yahtzee table: /);
await assert.rejects(openTables({ nosuch: new Uint8Array(10) }), /no game "nosuch"/);
const noYatzy = await openTables({ yahtzee: await bytes(tablesDir, "yahtzee") });
await assert.rejects(noYatzy.lookup("yatzy", { mask: "all", upper: 0 }), /no yatzy table is open/);
// README.md's example: a path relative to the working directory, and what it shows.
const t = await openTables({ yahtzee: relative(process.cwd(), join(tablesDir, "yahtzee.dtab")) });
const a = await t.lookup("yahtzee", { mask: "all", upper: 0, dice: "33356", rerolls: 1 });
assert.deepStrictEqual(a.best, { keep: "333" });
assert.deepStrictEqual(a.options[0], { action: { keep: "333" }, ev: 253.8578135083333 });
await assert.rejects(openTables({ yahtzee: "no/such/yahtzee.dtab" }), /yahtzee table: cannot read no\/such/);
console.log(`npm: ${answered} golden lookups and ${refused.length} golden refusals agree with the reader`);
