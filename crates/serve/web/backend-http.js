// Where the page's answers come from when `reader serve` serves it: its
// HTTP API (GET v1/lookup/GAME?ARGS answers what `reader lookup GAME --ARGS
// --json` prints). A static site has backend-wasm.js in this file's place.

/** The server's tables (GET v1/info), asked once. */
let served = null;

async function getJson(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
}

const lookup = (game, query) => getJson(`v1/lookup/${game}?${new URLSearchParams(query)}`);

/** The table of `id` under joker reading `joker`: yahtzee's free reading is yahtzee-free. */
const tableId = (id, joker) => (joker === "free" ? `${id}-free` : id);

/**
 * The table answering game `id` (yahtzee under joker reading `joker`):
 * resolves to { lookup(game, query), source }, or fails saying why the
 * server cannot answer.
 */
export async function tableFor(id, joker) {
  if (served === null) served = getJson("v1/info").then((info) => info.tables);
  let tables;
  try {
    tables = await served;
  } catch (e) {
    served = null; // asked again on the next call
    throw e;
  }
  const wanted = tableId(id, joker);
  const table = tables.find((t) => t.game === wanted);
  if (!table && joker) {
    throw new Error(`this server serves no ${wanted} table (the ${joker} joker reading): choose the other reading, or serve a directory holding ${wanted}.dtab (make ${wanted})`);
  }
  if (!table) throw new Error(`this server serves no ${id} table`);
  if (table.error) throw new Error(table.error);
  const ask = joker === "free" ? (game, query) => lookup(game, { ...query, joker }) : lookup;
  return { lookup: ask, source: `reader serve's ${table.file} (blake3 ${table.blake3.slice(0, 16)})` };
}
