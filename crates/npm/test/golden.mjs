// The npm package as a program installs it (from the tarball `npm pack`
// makes, into a scratch project: `make npm-test`): every golden lookup and
// every golden refusal of tests/golden/ gives the same answer and the same
// message as the reader, and a game of two-player 10000 and a turn of
// threes get the reviews `reader review` gives. Environment: GOLDEN (tests/golden), DICE_TABLES
// (the tables `make tables` writes), DICE_TARGET_TABLES (the reduced target
// tables of `make reduced-target-tables`), READER (the reader). Then the same lookups of the
// same tables read in pieces over HTTP range requests from a local static
// server (range_server.mjs): only the chunks asked for fetched, each once,
// far fewer bytes than the files hold; a server that ignores Range refused
// in one line; a lookup with the server gone answered from the chunks held,
// or refused naming the bytes it cannot fetch.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { openTables } from "dice-tables";
import { serveFiles } from "./range_server.mjs";
import { assertSameReview } from "./same_review.mjs";

const golden = process.env.GOLDEN;
const tablesDir = process.env.DICE_TABLES;
const targetDir = process.env.DICE_TARGET_TABLES;
assert.ok(golden && tablesDir && targetDir && process.env.READER, "set GOLDEN, DICE_TABLES, DICE_TARGET_TABLES and READER");
const read = async (name) => JSON.parse(await readFile(join(golden, name), "utf8"));

// Bytes for some tables, URLs (file: here) for others: both are accepted.
const file = (dir, game) => new URL(`file://${join(dir, `${game}.dtab`)}`);
const bytes = async (dir, game) => readFile(join(dir, `${game}.dtab`));
const started = performance.now();
const TABLES = ["yazy", "yazy-target", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames", "maxi-yatzy"];
const RULE_TABLES = ["forced-yatzy", "yacht", "yacht-dice", "generala", "crag", "yahtzee-no-joker", "yahtzee-no-bonus",
  // Their target tables `make tables` writes, opened under their files' names.
  "forced-yatzy-target", "yacht-target", "generala-target", "crag-target"];
const TARGETS = ["yatzy", "yahtzee", "yatzy-target", "yahtzee-target", "yazy-duel"];
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
  ...Object.fromEntries(await Promise.all(RULE_TABLES.map(async (name) => [name, await bytes(tablesDir, name)]))),
});
const targets = await openTables({
  yatzy: file(targetDir, "yatzy"),
  yahtzee: file(targetDir, "yahtzee"),
  "yatzy-target": file(targetDir, "yatzy-target"),
  "yahtzee-target": file(targetDir, "yahtzee-target"),
  // Two-player yazy, reduced to the categories of tests/golden/yazy-duel.json.
  "yazy-duel": file(targetDir, "yazy-duel"),
  // Two-player forced Yatzy, whole (tests/golden/rule-set-duel.json).
  "forced-yatzy-duel": await bytes(targetDir, "forced-yatzy-duel"),
});
console.log(`opened ${tables.games.length + targets.games.length} tables in ${(performance.now() - started).toFixed(0)} ms`);

const argumentNames = new Set();
/** Asks every golden lookup of `tables` (the default tables) and `targets` (the reduced ones); returns how many. */
async function askEveryGolden(tables, targets, ask = (t, game, query) => t.lookup(game, query)) {
  let answered = 0;
  for (const game of ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "maxi-yatzy"]) {
    const { lookups } = await read(`${game}.json`);
    assert.ok(lookups.length >= 300, `${game}: ${lookups.length} golden lookups`);
    for (const { query, answer } of lookups) {
      Object.keys(query).forEach((k) => argumentNames.add(k));
      assert.deepStrictEqual(await ask(tables, game, query), answer, `${game} ${JSON.stringify(query)}`);
      answered++;
    }
  }
  const target = await read("target.json");
  for (const { game, query, answer } of target.lookups) {
    Object.keys(query).forEach((k) => argumentNames.add(k));
    assert.deepStrictEqual(await ask(targets, game, query), answer, `${game} ${JSON.stringify(query)}`);
    answered++;
  }
  const duel = await read("yazy-duel.json");
  assert.ok(duel.lookups.length >= 200, `yazy-duel: ${duel.lookups.length} golden lookups`);
  for (const { query, answer } of duel.lookups) {
    Object.keys(query).forEach((k) => argumentNames.add(k));
    assert.deepStrictEqual(await ask(targets, "yazy", query), answer, `yazy ${JSON.stringify(query)}`);
    answered++;
  }
  return answered;
}
const answered = await askEveryGolden(tables, targets, (t, game, query) =>
  (t === targets ? Promise.resolve(t.lookupSync(game, query)) : t.lookup(game, query)));
// The presets' rule-set tables, each opened whole under its rule set's name.
const ruleSets = (await read("rule-sets.json")).lookups;
for (const { game, query, answer } of ruleSets) {
  assert.deepStrictEqual(await tables.lookup(game, query), answer, `${game} ${JSON.stringify(query)}`);
}
// Two-player forced Yatzy, its whole table opened under its file's name.
const ruleDuel = (await read("rule-set-duel.json")).lookups;
assert.ok(ruleDuel.length >= 200, `rule-set-duel: ${ruleDuel.length} golden lookups`);
for (const { game, query, answer } of ruleDuel) {
  Object.keys(query).forEach((k) => argumentNames.add(k));
  assert.deepStrictEqual(await targets.lookup(game, query), answer, `${game} ${JSON.stringify(query)}`);
}
// A game of two-player 10000 reviewed as `reader review duel FILE --json`
// reviews it, its duel table read in pieces; and a line that breaks the rules refused as the reader refuses it.
const duelGame = join(golden, "duel-two-mistakes.txt");
const reviewPrinted = await promisify(execFile)(process.env.READER, ["review", "duel", duelGame, "--json", "--tables", tablesDir]);
const duelReview = await tables.reviewFetching("duel", await readFile(duelGame, "utf8"));
assertSameReview(duelReview, JSON.parse(reviewPrinted.stdout), "duel-two-mistakes.txt");
assert.deepEqual(duelReview.largest_mistakes, [34, 65]);
// A turn of threes, its table read in pieces, as `reader review threes` reviews it.
const turnFile = join(await mkdtemp(join(tmpdir(), "threes-")), "turn.txt");
await writeFile(turnFile, "game: threes\nrecord: 8\nafter: 1\n33456 keep 6\n1245 keep 1\n245 keep 245\n");
const turnPrinted = await promisify(execFile)(process.env.READER, ["review", "threes", turnFile, "--json", "--tables", tablesDir]);
assertSameReview(await tables.reviewFetching("threes", await readFile(turnFile, "utf8")), JSON.parse(turnPrinted.stdout), "a turn of threes");
assert.throws(() => tables.review("tenk", "1123 keep 1 throw\n"), /^Error: line 1 \(1123 keep 1 throw\): 1123 is 4 dice: 6 are thrown \(six open each turn\)$/);

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
await assert.rejects(openTables({ "no such": new Uint8Array(10) }), /no game "no such"/);
// Any other name of a rule set's form is a rule set's table: these bytes are none.
await assert.rejects(openTables({ nosuch: new Uint8Array(10) }), /nosuch table: file is truncated/);
const noYatzy = await openTables({ yahtzee: await bytes(tablesDir, "yahtzee") });
await assert.rejects(noYatzy.lookup("yatzy", { mask: "all", upper: 0 }), /no yatzy table is open/);
// README.md's example: a path relative to the working directory, and what it shows.
const t = await openTables({ yahtzee: relative(process.cwd(), join(tablesDir, "yahtzee.dtab")) });
const a = await t.lookup("yahtzee", { mask: "all", upper: 0, dice: "33356", rerolls: 1 });
assert.deepStrictEqual(a.best, { keep: "333" });
assert.deepStrictEqual(a.options[0], { action: { keep: "333" }, ev: 253.8578135083333 });
await assert.rejects(openTables({ yahtzee: "no/such/yahtzee.dtab" }), /yahtzee table: cannot read no\/such/);

// The repository README's JavaScript example, run as it stands (from a
// directory whose tables/ is DICE_TABLES): it prints what README shows.
const readme = await readFile(join(golden, "..", "..", "README.md"), "utf8");
const example = readme.split("```js\n")[1]?.split("```")[0];
assert.ok(example, "README.md has no JavaScript example");
const shown = readme.split("$ node example.mjs\n")[1]?.split("```")[0];
assert.ok(shown, "README.md does not show what its JavaScript example prints");
const exampleFile = join(process.cwd(), "readme_example.mjs");
await writeFile(exampleFile, example);
const exampleDir = await mkdtemp(join(tmpdir(), "dice-tables-readme-"));
await symlink(tablesDir, join(exampleDir, "tables"));
const printed = await promisify(execFile)(process.execPath, [exampleFile], { cwd: exampleDir });
assert.equal(printed.stdout, shown, "README.md's JavaScript example prints something else");
await rm(exampleDir, { recursive: true });

// The same tables read in pieces over HTTP range requests.
const server = await serveFiles({ "/tables/": tablesDir, "/reduced/": targetDir });
const ranged = (dir, games) => Object.fromEntries(games.map((g) => [g, { url: `${server.base}/${dir}/${g}.dtab`, ranges: true }]));
const rangedTables = await openTables(ranged("tables", TABLES));
const rangedTargets = await openTables(ranged("reduced", TARGETS));
const opened = rangedTables.fetched + rangedTargets.fetched;
// Before any lookup fetched its chunk, lookupSync says what lookup() would fetch.
assert.throws(() => rangedTables.lookupSync("maxi-yatzy", { mask: "all", upper: 0, dice: "123456", rerolls: 2 }), /maxi-yatzy table: this lookup needs bytes \d+-\d+ of http:.*, not fetched yet: lookup\(\) fetches them/);
// What one lookup fetched at most (the chunks of every state it reads).
let most = [0, ""];
const rangedAnswered = await askEveryGolden(rangedTables, rangedTargets, async (t, game, query) => {
  const before = t.fetched;
  const answer = await t.lookup(game, query);
  if (t.fetched - before > most[0]) most = [t.fetched - before, `${game} ${JSON.stringify(query)}`];
  return answer;
});
assert.equal(rangedAnswered, answered);
// Each chunk fetched once, and only chunks (and the headers).
const asked = server.ranges;
assert.equal(new Set(asked).size, asked.length, "no range asked twice");
const size = async (dir, games) => (await Promise.all(games.map((g) => stat(join(dir, `${g}.dtab`))))).reduce((n, s) => n + s.size, 0);
const whole = (await size(tablesDir, TABLES)) + (await size(targetDir, TARGETS));
const fetched = rangedTables.fetched + rangedTargets.fetched;
const maxi = rangedTables.files.get("maxi-yatzy").fetched;
const maxiSize = (await stat(join(tablesDir, "maxi-yatzy.dtab"))).size;
// The golden lookups sample states all over each table, yet fetch well under half of the files.
assert.ok(fetched < whole / 2, `${fetched} bytes fetched of ${whole}`);
assert.ok(most[0] < maxiSize / 100, `one lookup fetched ${most[0]} bytes: ${most[1]}`);
// A lookup with the server gone: from the chunks held, else refused in one line.
await server.close();
const { query, answer } = (await read("yazy.json")).lookups[0];
assert.deepStrictEqual(await rangedTables.lookup("yazy", query), answer, "answered offline from the chunks held");
// A state whose chunk no golden lookup fetched: lookupSync says it is not held.
const notHeld = [...Array(4096).keys()].map((i) => ({ mask: (i * 2654435761) % 1048576 | 64, upper: 0 })).find((q) => {
  try {
    rangedTables.lookupSync("maxi-yatzy", q);
    return false;
  } catch (e) {
    return /not fetched yet/.test(e.message);
  }
});
await assert.rejects(rangedTables.lookup("maxi-yatzy", notHeld),
  /^Error: maxi-yatzy table: cannot fetch bytes \d+-\d+ of http:\/\/127\.0\.0\.1:\d+\/tables\/maxi-yatzy\.dtab: fetch failed$/);
// A server that ignores Range: refused at once, the file not downloaded.
const ignoring = await serveFiles({ "/tables/": tablesDir }, { ignoreRange: true });
await assert.rejects(openTables({ "maxi-yatzy": { url: `${ignoring.base}/tables/maxi-yatzy.dtab`, ranges: true } }),
  /^Error: maxi-yatzy table: http:.* ignores range requests \(it answered with the whole file, HTTP 200\): serve it from a server that honours Range, or give the table's bytes$/);
await new Promise((resolve) => setTimeout(resolve, 200));
assert.ok(ignoring.sent() < maxiSize / 4, `${ignoring.sent()} bytes sent of ${maxiSize} by the server ignoring Range`);
await ignoring.close();
console.log(`npm: ${answered} golden lookups, ${ruleSets.length} of the rule-set tables, ${ruleDuel.length} of two-player forced Yatzy and ${refused.length} golden refusals agree with the reader; read in pieces over HTTP range requests, the same ${rangedAnswered} lookups fetched ${fetched} bytes (${opened} to open) of the files' ${whole} (maxi-yatzy ${maxi} of ${maxiSize}) in ${asked.length} requests, none twice, one lookup at most ${most[0]} (${most[1]}); offline answered from the chunks held, else refused in one line; a server ignoring Range refused in one line`);
