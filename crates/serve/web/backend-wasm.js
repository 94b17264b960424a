// Where the page's answers come from on a static site (`make site`): each
// table file fetched once and checked whole, then every lookup run in the
// page by the npm package's WebAssembly reader; nothing is fetched per
// decision. `reader serve` serves backend-http.js in this file's place.
import { openTables } from "./dice-tables/index.js";

const opened = new Map();

/** Bytes fetched once per program: the whole reader's module, for Maxi Yatzy, play against someone and the rule sets' tab. */
const fetched = new Map();
export function fetchOnce(url) {
  if (!fetched.has(url)) {
    const bytes = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`cannot fetch ${url}: HTTP ${r.status}`);
      return r.arrayBuffer();
    });
    bytes.catch(() => fetched.delete(url));
    fetched.set(url, bytes);
  }
  return fetched.get(url);
}

/**
 * Which tables this site lacks: none to ask (null, where `reader serve`'s
 * backend has a function), since `make site` copies every table the page
 * reads; the page then loads no code to mark choices unavailable.
 */
export const availability = null;

/**
 * The table answering game `id` under `variant` (yahtzee's free joker
 * reading is the table yahtzee-free, Maxi Yatzy's swedish rules
 * maxi-yatzy-swedish) for what the lookup `reads`, opened on the first
 * call: "points" (the most points), the game's own table fetched whole;
 * "target" (the chance of reaching a score), its target table, and
 * "against" someone, the two-player table (yazy-duel) or the target table
 * the opponent-aware advisor reads, each read in pieces over range
 * requests (tens to hundreds of MB: only the chunks a lookup needs, each
 * checked against its blake3 and kept). Resolves to { lookup(game, query),
 * source, fetched() }.
 */
export function tableFor(id, variant, reads = "points") {
  const plain = variant ? `${id}-${variant}` : id;
  const name = reads === "points" ? plain : reads === "against" && id === "yazy" ? "yazy-duel" : `${plain}-target`;
  const inPieces = reads !== "points";
  const url = `tables/${name}.dtab`;
  if (!opened.has(url)) {
    // The module the page starts with reads the five-dice solitaire games
    // only (it is fetched before the first advice); Maxi Yatzy's six dice
    // and the two-player tables are in the whole reader's, fetched when first asked.
    const full = id === "maxi-yatzy" || inPieces;
    const options = full ? fetchOnce("dice-tables/full.wasm").then((wasm) => ({ wasm })) : {};
    const source = inPieces ? { url, ranges: true } : url;
    const table = Promise.resolve(options).then((o) => openTables({ [name]: source }, o)).then((t) => ({
      lookup: (game, query) => t.lookup(game, variant === "free" ? { ...query, joker: variant } : query),
      source: inPieces ? `${url} (read in pieces: each chunk fetched when a lookup first needs it and checked against its blake3), looked up in this page`
        : `${url} (checked whole against its blake3 checksums), looked up in this page`,
      fetched: () => t.fetched,
    }));
    // A failed fetch is tried again on the next call, not remembered.
    table.catch(() => opened.delete(url));
    opened.set(url, table);
  }
  return opened.get(url);
}
