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

/** The table of `id` under `variant`: yahtzee's free joker reading is yahtzee-free, Maxi Yatzy's swedish rules maxi-yatzy-swedish. */
const tableId = (id, variant) => (variant ? `${id}-${variant}` : id);

/**
 * The table a lookup reads, and the command that builds it: for `reads`
 * "points" the game's own; "target" (play to reach a score) its target
 * table; "against" someone (with the opponent's sheet) yazy's two-player
 * table, else the target table the opponent-aware advisor reads.
 */
const tableOf = (id, variant, reads) => {
  const plain = tableId(id, variant);
  if (reads === "points") return [plain];
  if (reads === "against" && id === "yazy") return ["yazy-duel", "make yazy-duel"];
  const make = variant === "free" ? "make yahtzee-free-target" : id === "yazy" ? "make yazy-target" : "make target-tables";
  return [`${plain}-target`, make];
};

/**
 * The table answering game `id` under `variant` (yahtzee's joker reading
 * "free", Maxi Yatzy's rules "swedish", or none) for what the lookup
 * `reads`: "points" (the most points), "target" (the chance of reaching a
 * score) or "against" someone (the chance of winning). Resolves to {
 * lookup(game, query), source }, or fails saying why the server cannot
 * answer.
 */
export async function tableFor(id, variant, reads = "points") {
  if (served === null) served = getJson("v1/info").then((info) => info.tables);
  let tables;
  try {
    tables = await served;
  } catch (e) {
    served = null; // asked again on the next call
    throw e;
  }
  const [wanted, make] = tableOf(id, variant, reads);
  const table = tables.find((t) => t.game === wanted);
  const purpose = { against: "play against someone", target: "play to reach a score" }[reads];
  if (!table && purpose) throw new Error(`this server serves no ${wanted} table, which ${purpose} reads: serve a directory holding ${wanted}.dtab (${make})`);
  if (!table && variant) {
    const [what, build] = variant === "free" ? ["the free joker reading", wanted] : [`the ${variant} rules`, "maxi-swedish"];
    throw new Error(`this server serves no ${wanted} table (${what}): choose the other, or serve a directory holding ${wanted}.dtab (make ${build})`);
  }
  if (!table) throw new Error(`this server serves no ${id} table`);
  if (table.error) throw new Error(table.error);
  const ask = variant === "free" ? (game, query) => lookup(game, { ...query, joker: variant }) : lookup;
  return { lookup: ask, source: `reader serve's ${table.file} (blake3 ${table.blake3.slice(0, 16)})` };
}
