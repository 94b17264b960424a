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
  const table = tables.find((t) => t.game === id);
  if (!table) throw new Error(`this server serves no ${id} table`);
  if (table.error) throw new Error(table.error);
  if (joker && table.rules.joker !== joker) {
    const other = joker === "free" ? "forced" : "free";
    throw new Error(`this server's yahtzee table is solved under the ${other} joker reading: choose ${other}, or serve a table made by generator --yahtzee-joker ${joker}`);
  }
  return { lookup, source: `reader serve's ${table.file} (blake3 ${table.blake3.slice(0, 16)})` };
}
