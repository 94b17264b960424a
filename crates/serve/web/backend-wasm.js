// Where the page's answers come from on a static site (`make site`): each
// table file fetched once and checked whole, then every lookup run in the
// page by the npm package's WebAssembly reader; nothing is fetched per
// decision. `reader serve` serves backend-http.js in this file's place.
import { openTables } from "./dice-tables/index.js";

const opened = new Map();

/** Bytes fetched once per program: the whole reader's module, for Maxi Yatzy. */
const fetched = new Map();
function fetchOnce(url) {
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
 * The table answering game `id` under `variant` (yahtzee's free joker
 * reading is the table yahtzee-free, Maxi Yatzy's swedish rules
 * maxi-yatzy-swedish), opened on the first call, alone (the most points;
 * `against` someone it fails, saying why): resolves to { lookup(game,
 * query), source }.
 */
export function tableFor(id, variant, against = false) {
  // Play against someone reads yazy's two-player table (209 MB) or a target
  // table (hundreds of MB): the static site does not fetch those whole.
  if (against) {
    return Promise.reject(new Error("play against someone reads the two-player and target tables, which this static site does not carry: play it under reader serve (make yazy-duel target-tables, then reader serve --tables tables)"));
  }
  const name = variant ? `${id}-${variant}` : id;
  const url = `tables/${name}.dtab`;
  if (!opened.has(url)) {
    // The module the page starts with reads the five-dice solitaire games
    // only (it is fetched before the first advice); Maxi Yatzy's six dice
    // are in the whole reader's, fetched when its tab opens.
    const options = id === "maxi-yatzy" ? fetchOnce("dice-tables/full.wasm").then((wasm) => ({ wasm })) : {};
    const table = Promise.resolve(options).then((o) => openTables({ [name]: url }, o)).then((t) => ({
      lookup: (game, query) => t.lookup(game, variant === "free" ? { ...query, joker: variant } : query),
      source: `${url} (checked whole against its blake3 checksums), looked up in this page`,
    }));
    // A failed fetch is tried again on the next call, not remembered.
    table.catch(() => opened.delete(url));
    opened.set(url, table);
  }
  return opened.get(url);
}
