// Where the rule sets' tab (rules.js) gets its answers on a static site
// (`make site`): the tables tables/rule-sets.json names, opened in the
// npm package's whole WebAssembly reader when the tab is first shown:
// `whole`, each rule set's own table, fetched and checked whole; `pieces`,
// its target and two-player tables, read in pieces over range requests;
// a review opens the rule set's table and its parts table (`parts`) whole,
// for a game played for a target its target table, whole too (a built-in
// game's, `built_in_targets`, hundreds of MB, in pieces), and for a game
// against someone its two-player table, in pieces (a built-in game's too,
// `built_in_duels`). A built-in game whose parts table is too big to fetch
// whole (Maxi Yatzy's, 441 MB, where `make site` found it: `parts_in_pieces`)
// has it and its own table read in pieces; one the site was built without
// (`parts_left_out`) is refused without fetching anything.
// Under `reader serve`, rules-http.js is in this file's place.
import { fetchOnce } from "./backend.js";
import { openTables } from "./dice-tables/index.js";

let opened = null;
/** The rule sets whose parts tables the site holds (tables/rule-sets.json's `parts`). */
let parts = new Set();
/** The built-in games whose parts tables the site holds to read in pieces (tables/rule-sets.json's `parts_in_pieces`). */
let partsInPieces = new Set();
/** The built-in games whose optional parts tables the site lacks (tables/rule-sets.json's `parts_left_out`): their reviews need them. */
let partsLeftOut = new Set();
/** The rule sets whose target tables the site holds (among tables/rule-sets.json's `pieces`). */
let targets = new Set();
/** The built-in games whose target tables the site holds, read in pieces (tables/rule-sets.json's `built_in_targets`). */
let builtInTargets = new Set();
/** The built-in games whose two-player tables the site holds (tables/rule-sets.json's `built_in_duels`). */
let builtInDuels = new Set();
/** The rule sets whose two-player tables the site holds (among tables/rule-sets.json's `pieces`). */
let duels = new Set();
/** Each rule set's tables for reviews, by name: opened on its first review. */
const reviewers = new Map();

/** Every rule set's table, opened on the first call (again after a failure). */
function ruleTables() {
  if (opened === null) {
    opened = (async () => {
      const response = await fetch("tables/rule-sets.json");
      if (!response.ok) throw new Error(`this site holds no rule set's table (tables/rule-sets.json: HTTP ${response.status})`);
      const {
        whole, pieces, parts: held = [], parts_in_pieces: heldInPieces = [], parts_left_out: leftOut = [],
        built_in_targets: builtIn = [], built_in_duels: builtInTwo = [],
      } = await response.json();
      parts = new Set(held);
      partsInPieces = new Set(heldInPieces);
      partsLeftOut = new Set(leftOut);
      builtInTargets = new Set(builtIn);
      builtInDuels = new Set(builtInTwo);
      const ending = (suffix) => new Set(pieces.filter((stem) => stem.endsWith(suffix)).map((stem) => stem.slice(0, -suffix.length)));
      targets = ending("-target");
      duels = ending("-duel");
      const sources = Object.fromEntries([
        ...whole.map((stem) => [stem, `tables/${stem}.dtab`]),
        ...pieces.map((stem) => [stem, { url: `tables/${stem}.dtab`, ranges: true }]),
      ]);
      return openTables(sources, { wasm: await fetchOnce("dice-tables/full.wasm") });
    })();
    opened.catch(() => { opened = null; });
  }
  return opened;
}

/** The rule sets' tables, as `reader serve`'s v1/info lists them (see rules-http.js). */
export const ruleSets = async () => (await ruleTables()).ruleSets();

/** Rule set `name`'s answer to `query`: from its two-player table where asked with an opponent. */
export const ruleLookup = async (name, query) => (await ruleTables()).lookup(name, query);

/**
 * A game of rule set `name` (its text, as the page writes it) reviewed,
 * each mistake with its reason: the review reads the rule set's own table
 * and its parts table whole, in a module of their own opened on the
 * rule set's first review (the parts are not fetched before).
 */
export async function ruleReview(name, text) {
  await ruleTables();
  const inPieces = partsInPieces.has(name);
  if (partsLeftOut.has(name)) {
    // A built-in game's review reads its parts table for the rules too: nothing to fetch without it.
    throw new Error(`this site does not hold ${name}-parts.dtab, which a review of ${name}'s games reads for the rules and the reasons: \`make ${name}-parts\`, then \`make site\`, puts it there`);
  }
  // A game played for a target (a header line target: N) also reads the
  // rule set's target table, whole (a built-in game's in pieces); a game
  // against someone (players: 2, or lines numbered by their player) its
  // two-player table, in pieces.
  const forTarget = /^\s*target\s*:/im.test(text);
  const reach = forTarget && targets.has(name);
  const reachInPieces = forTarget && builtInTargets.has(name);
  const against = /^\s*(players\s*:\s*2|\d+\s*:)/im.test(text) && (duels.has(name) || builtInDuels.has(name));
  const key = reach || reachInPieces ? `${name} target` : against ? `${name} against` : name;
  if (!reviewers.has(key)) {
    const sources = {
      [name]: inPieces ? { url: `tables/${name}.dtab`, ranges: true } : `tables/${name}.dtab`,
      ...(parts.has(name) ? { [`${name}-parts`]: `tables/${name}-parts.dtab` } : {}),
      ...(inPieces ? { [`${name}-parts`]: { url: `tables/${name}-parts.dtab`, ranges: true } } : {}),
      ...(reach ? { [`${name}-target`]: `tables/${name}-target.dtab` } : {}),
      ...(reachInPieces ? { [`${name}-target`]: { url: `tables/${name}-target.dtab`, ranges: true } } : {}),
      ...(against ? { [`${name}-duel`]: { url: `tables/${name}-duel.dtab`, ranges: true } } : {}),
    };
    const opening = fetchOnce("dice-tables/full.wasm").then((wasm) => openTables(sources, { wasm }));
    reviewers.set(key, opening);
    opening.catch(() => reviewers.delete(key));
  }
  return (await reviewers.get(key)).reviewFetching(name, text);
}
