// Where the page's answers come from on a static site (`make site`): each
// table file fetched once and checked whole, then every lookup run in the
// page by the npm package's WebAssembly reader; nothing is fetched per
// decision. `reader serve` serves backend-http.js in this file's place.
import { openTables } from "./dice-tables/index.js";

const opened = new Map();

/**
 * The table answering game `id` (yahtzee under joker reading `joker`),
 * opened on the first call: resolves to { lookup(game, query), source }.
 */
export function tableFor(id, joker) {
  // yahtzee's free joker reading is the table yahtzee-free.
  const name = joker === "free" ? `${id}-free` : id;
  const url = `tables/${name}.dtab`;
  if (!opened.has(url)) {
    const table = openTables({ [name]: url }).then((t) => ({
      lookup: (game, query) => t.lookup(game, joker === "free" ? { ...query, joker } : query),
      source: `${url} (checked whole against its blake3 checksums), looked up in this page`,
    }));
    // A failed fetch is tried again on the next call, not remembered.
    table.catch(() => opened.delete(url));
    opened.set(url, table);
  }
  return opened.get(url);
}
