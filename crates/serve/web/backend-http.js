// Where the page's answers come from when `reader serve` serves it: its
// HTTP API (GET v1/lookup/GAME?ARGS answers what `reader lookup GAME --ARGS
// --json` prints). A static site has backend-wasm.js in this file's place.

/** The server's tables (GET v1/info), asked once. */
let served = null;

/** The JSON at `path`, or the server's error as an Error. */
export async function getJson(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ?? `${path}: HTTP ${response.status}`);
  return body;
}

const lookup = (game, query) => getJson(`v1/lookup/${game}?${new URLSearchParams(query)}`);

/** The table of `id` under `variant`: yahtzee's free joker reading is yahtzee-free, Maxi Yatzy's swedish rules maxi-yatzy-swedish. */
const tableId = (id, variant) => (variant ? `${id}-${variant}` : id);

/**
 * The table a lookup reads: for `reads` "points" the game's own; "target"
 * (play to reach a score) its target table; "against" someone (with the
 * opponent's sheet) yazy's two-player table, else the target table the
 * opponent-aware advisor reads.
 */
const tableOf = (id, variant, reads) => {
  const plain = tableId(id, variant);
  if (reads === "points") return plain;
  return reads === "against" && id === "yazy" ? "yazy-duel" : `${plain}-target`;
};

/** The server's tables (v1/info), asked once (again after a failure). */
async function servedTables() {
  if (served === null) served = getJson("v1/info").then((info) => info.tables);
  try {
    return await served;
  } catch (e) {
    served = null; // asked again on the next call
    throw e;
  }
}

/**
 * Whether the server answers game `id` under `variant` for what the lookup
 * `reads` (see tableFor): resolves to null when it does, else to { table,
 * how }: the table it lacks and, for whoever runs the server, what makes it
 * (the server's own words from v1/info).
 */
export async function availability(id, variant, reads = "points") {
  const wanted = tableOf(id, variant, reads);
  const table = (await servedTables()).find((t) => t.game === wanted);
  if (!table) return { table: wanted, how: `reader serve was started with --games leaving out ${wanted}: add it to the list, or drop --games to serve every table in the directory` };
  return table.error ? { table: wanted, how: table.error } : null;
}

/**
 * The table answering game `id` under `variant` (yahtzee's joker reading
 * "free", Maxi Yatzy's rules "swedish", or none) for what the lookup
 * `reads`: "points" (the most points), "target" (the chance of reaching a
 * score) or "against" someone (the chance of winning). Resolves to {
 * lookup(game, query), source }, or fails saying why the server cannot
 * answer.
 */
export async function tableFor(id, variant, reads = "points") {
  const missing = await availability(id, variant, reads);
  if (missing) throw Object.assign(new Error(missing.how), { missing });
  const table = (await servedTables()).find((t) => t.game === tableOf(id, variant, reads));
  const ask = variant === "free" ? (game, query) => lookup(game, { ...query, joker: variant }) : lookup;
  return { lookup: ask, source: `reader serve's ${table.file} (blake3 ${table.blake3.slice(0, 16)})` };
}
