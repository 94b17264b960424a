// dice-tables: the reader's lookup layer, compiled to WebAssembly
// (dice_tables.wasm, built from crates/npm/wasm by `make npm`). Tables go in as
// bytes (or URLs to fetch them from), are checked whole against their
// checksums as they go in, and every lookup after that runs in memory:
// nothing is fetched per lookup. Answers are the objects
// `reader lookup GAME ... --json` prints.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a call of the module left: 0 an answer; otherwise a refusal. */
const OK = 0;
const BAD_ARGUMENT = 2;

let modulePromise = null;

/** The compiled module, once per program. */
function loadModule(wasm) {
  if (wasm !== undefined) return WebAssembly.compile(toBytes(wasm));
  if (!modulePromise) {
    const url = new URL("./dice_tables.wasm", import.meta.url);
    modulePromise = (async () => {
      if (url.protocol === "file:") {
        const { readFile } = await import("node:fs/promises");
        return WebAssembly.compile(await readFile(url));
      }
      const response = await fetch(url);
      if (!response.ok) throw new Error(`dice-tables: cannot fetch ${url}: HTTP ${response.status}`);
      return WebAssembly.compileStreaming
        ? WebAssembly.compileStreaming(response)
        : WebAssembly.compile(await response.arrayBuffer());
    })();
  }
  return modulePromise;
}

function toBytes(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new TypeError("expected a Uint8Array, a Buffer or an ArrayBuffer");
}

/** A local file's bytes (node): `where` a path or a file: URL. */
async function readLocal(game, where) {
  const { readFile } = await import("node:fs/promises");
  return readFile(where).catch((e) => {
    throw new Error(`${game} table: cannot read ${where}: ${e.message}`);
  });
}

/** A table's bytes: given, or read or fetched from a path or URL. */
async function tableBytes(game, source) {
  // In node, a string that is not a URL is a path (relative to the working directory).
  if (typeof source === "string" && !globalThis.location && !/^[a-z][a-z0-9+.-]*:/i.test(source)) {
    return readLocal(game, source);
  }
  if (typeof source === "string" || source instanceof URL) {
    const url = new URL(source, globalThis.location?.href ?? import.meta.url);
    if (url.protocol === "file:") return readLocal(game, url);
    const response = await fetch(url).catch((e) => {
      throw new Error(`${game} table: cannot fetch ${url}: ${e.message}`);
    });
    if (!response.ok) throw new Error(`${game} table: cannot fetch ${url}: HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  try {
    return toBytes(source);
  } catch {
    throw new TypeError(`${game}: expected the table's bytes (a Uint8Array, a Buffer or an ArrayBuffer) or a URL`);
  }
}

/** A query object as the query string the lookup layer parses. */
function queryString(query) {
  if (query === undefined || query === null) return "";
  if (typeof query !== "object" || Array.isArray(query)) {
    throw new TypeError('a query is an object of arguments, like { mask: "all", upper: 0, dice: "33356", rerolls: 1 }');
  }
  const parts = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === false) continue;
    const key = encodeURIComponent(name);
    if (value === true) parts.push(key);
    else if (typeof value === "string") parts.push(`${key}=${encodeURIComponent(value)}`);
    else if (typeof value === "number" && Number.isFinite(value)) parts.push(`${key}=${encodeURIComponent(String(value))}`);
    else throw new TypeError(`${name}: expected a string, a number, or true or false, got ${typeof value}`);
  }
  return parts.join("&");
}

class Reader {
  constructor(instance) {
    this.exports = instance.exports;
  }

  /** Copies `bytes` into the module's memory; returns [pointer, length]. */
  put(bytes) {
    const x = this.exports;
    const at = x.dt_alloc(bytes.length);
    new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    return [at, bytes.length];
  }

  result() {
    const x = this.exports;
    return decoder.decode(new Uint8Array(x.memory.buffer, x.dt_result_ptr(), x.dt_result_len()));
  }

  call(name, game, bytes) {
    const status = this.exports[name](...this.put(encoder.encode(game)), ...this.put(bytes));
    const text = this.result();
    if (status === OK) return text;
    throw status === BAD_ARGUMENT ? new TypeError(text) : new Error(text);
  }
}

/**
 * The tables of some games, each checked whole as it goes in.
 * @see index.d.ts
 */
class Tables {
  /** @param {Reader} reader @param {string[]} games */
  constructor(reader, games) {
    this.reader = reader;
    this.games = games;
  }

  /**
   * The answer of `game` to `query`: exactly the object `reader lookup
   * GAME ... --json` prints. A bad query throws an Error (a TypeError for an
   * argument the lookup does not take or lacks) whose message is the
   * lookup layer's, naming arguments as in the query (`rerolls=1 needs dice`).
   */
  async lookup(game, query) {
    return this.lookupSync(game, query);
  }

  /** {@link Tables#lookup} without a promise, for a program's hot loop. */
  lookupSync(game, query) {
    if (typeof game !== "string") throw new TypeError("game: expected a game's name, like \"yahtzee\"");
    return JSON.parse(this.reader.call("dt_lookup", game, encoder.encode(queryString(query))));
  }
}

/**
 * Opens tables: `{ yahtzee: bytesOrUrl, yatzy: ..., ... }`, each the bytes
 * of a `.dtab` file (a Uint8Array, a Buffer or an ArrayBuffer) or a URL to
 * fetch it from. Each is checked whole (its header, every chunk's blake3,
 * the game's own checks) before the promise resolves.
 */
export async function openTables(tables, options = {}) {
  if (typeof tables !== "object" || tables === null || Array.isArray(tables)) {
    throw new TypeError('openTables takes an object of tables, like { yahtzee: "tables/yahtzee.dtab" }');
  }
  const entries = Object.entries(tables);
  const [module, ...bytes] = await Promise.all([
    loadModule(options.wasm),
    ...entries.map(([game, source]) => tableBytes(game, source)),
  ]);
  const reader = new Reader(await WebAssembly.instantiate(module, {}));
  const games = entries.map(([game], i) => reader.call("dt_open", game, bytes[i]));
  return new Tables(reader, games);
}
