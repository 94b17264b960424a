// dice-tables: the reader's lookup layer, compiled to WebAssembly
// (dice_tables.wasm, built from crates/npm/wasm by `make npm`). Tables go in as
// bytes (or URLs to fetch them from), are checked whole against their
// checksums as they go in, and every lookup after that runs in memory:
// nothing is fetched per lookup. A big table can instead be read in pieces
// over HTTP range requests ({ url, ranges: true }): its header at once, each
// chunk the first time a lookup needs it, checked against its blake3 and
// kept. Answers are the objects `reader lookup GAME ... --json` prints.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a call of the module left: 0 an answer; 4 a chunk to fetch; otherwise a refusal. */
const OK = 0;
const BAD_ARGUMENT = 2;
const NEEDED = 4;
/** The first bytes asked of a table read in pieces: its preamble and, for most tables, its whole header. */
const FIRST_BYTES = 1 << 16;
/** The preamble's length, and the most a header may hold (FORMAT.md). */
const PREAMBLE = 48;
const MAX_HEADER = 8388608;

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

  /** Calls export `name` with `args` (text and bytes copied in, numbers as they are): [status, result]. */
  status(name, ...args) {
    const flat = args.flatMap((a) => (typeof a === "number" ? [a] : this.put(typeof a === "string" ? encoder.encode(a) : a)));
    const status = this.exports[name](...flat);
    return [status, this.result()];
  }

  /** {@link Reader#status}, the result returned or the refusal thrown. */
  call(name, ...args) {
    const [status, text] = this.status(name, ...args);
    if (status === OK) return text;
    throw status === BAD_ARGUMENT ? new TypeError(text) : new Error(text);
  }
}

/** A table file read in pieces over HTTP range requests, and what was fetched of it. */
class RangedFile {
  constructor(game, url) {
    this.game = game;
    this.url = url;
    /** Bytes fetched so far, and in how many requests. */
    this.fetched = 0;
    this.requests = 0;
  }

  /** Bytes `start` to `end` (inclusive) of the file: { body, size } with the file's size. */
  async bytes(start, end) {
    const where = `bytes ${start}-${end} of ${this.url}`;
    let response;
    try {
      response = await fetch(this.url, { headers: { Range: `bytes=${start}-${end}` } });
    } catch (e) {
      throw new Error(`${this.game} table: cannot fetch ${where}: ${e.message}`);
    }
    if (response.status !== 206) {
      // A server that ignores Range sends the whole file: not read past its first bytes.
      response.body?.cancel().catch(() => {});
      if (response.status === 200) {
        throw new Error(`${this.game} table: ${this.url} ignores range requests (it answered with the whole file, HTTP 200): serve it from a server that honours Range, or give the table's bytes`);
      }
      throw new Error(`${this.game} table: cannot fetch ${where}: HTTP ${response.status}`);
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get("content-range") ?? "");
    if (!range || Number(range[1]) !== start || Number(range[2]) > end) {
      response.body?.cancel().catch(() => {});
      throw new Error(`${this.game} table: asked ${where}, the server answered ${response.headers.get("content-range") ?? "without a Content-Range"}`);
    }
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.length !== Number(range[2]) - start + 1) throw new Error(`${this.game} table: ${where} came short (${body.length} bytes)`);
    this.fetched += body.length;
    this.requests += 1;
    return { body, size: Number(range[3]) };
  }
}

/** A source `{ url, ranges: true }`: the table read in pieces. */
const isRanged = (source) => source?.ranges === true;

/**
 * Opens game `game`'s table read in pieces from `url` into `reader`: the
 * first bytes (preamble and header) now, then every chunk its checks read;
 * resolves to [id, the RangedFile].
 */
async function openPieces(reader, game, url) {
  const file = new RangedFile(game, new URL(url, globalThis.location?.href ?? import.meta.url).href);
  const first = await file.bytes(0, FIRST_BYTES - 1);
  let prefix = first.body;
  // The header's length is in the preamble; one more request when it is
  // longer than the first bytes (up to the format's limit: past it, the
  // module refuses the file).
  if (prefix.length >= PREAMBLE) {
    const headerEnd = PREAMBLE + new DataView(prefix.buffer, prefix.byteOffset + 12, 4).getUint32(0, true);
    if (headerEnd > prefix.length && headerEnd <= PREAMBLE + MAX_HEADER && headerEnd <= first.size) {
      const rest = await file.bytes(prefix.length, headerEnd - 1);
      const joined = new Uint8Array(headerEnd);
      joined.set(prefix);
      joined.set(rest.body, prefix.length);
      prefix = joined;
    }
  }
  let [status, text] = reader.status("dt_open_pieces", game, prefix, first.size);
  while (status === NEEDED) {
    await supplyTo(reader, text, () => file);
    [status, text] = reader.status("dt_open_pieces", game, new Uint8Array(0), first.size);
  }
  if (status !== OK) throw new Error(text);
  return [text, file];
}

/** Fetches the chunk a call asked for (`GAME OFFSET LEN`) from the file `fileOf(GAME)` and gives it to the module. */
async function supplyTo(reader, needed, fileOf) {
  const [id, offset, len] = needed.split(" ");
  const file = fileOf(id);
  const { body } = await file.bytes(Number(offset), Number(offset) + Number(len) - 1);
  reader.call("dt_supply", id, Number(offset), body);
}

/**
 * The tables of some games, each checked whole as it goes in.
 * @see index.d.ts
 */
class Tables {
  /** @param {Reader} reader @param {string[]} games @param {Map<string, RangedFile>} files */
  constructor(reader, games, files) {
    this.reader = reader;
    this.games = games;
    this.files = files;
  }

  /** Bytes fetched so far by range requests, over every table read in pieces. */
  get fetched() {
    return [...this.files.values()].reduce((n, f) => n + f.fetched, 0);
  }

  /**
   * The rule sets' tables open (their own, target and two-player tables),
   * each as `reader serve`'s v1/info lists it: { game (the file's stem),
   * rule_set, boxes, dice, rerolls, upper_bonus, ... }. None in a module
   * built without rule sets.
   */
  ruleSets() {
    if (this.reader.exports.dt_rule_sets === undefined) return [];
    return JSON.parse(this.reader.call("dt_rule_sets"));
  }

  /**
   * The game `text` of rule set `name` (one decision a line, `DICE keep
   * KEPT` or `DICE score BOX`, as the page writes it; against someone each
   * line may begin with its player's number, `2: DICE ...`; the tables it
   * reads opened whole, else see reviewFetching) reviewed: exactly the object `reader review NAME
   * FILE --json` prints (start, score or open and now, luck, loss,
   * accuracy, rating, every decision, largest_mistakes). A line that
   * breaks the rules throws an Error naming it.
   */
  review(name, text) {
    const [status, body] = this.askReview(name, text);
    if (status === NEEDED) throw this.notFetched(body, "review", "reviewFetching()");
    return this.answer(status, body);
  }

  /**
   * {@link Tables#review} where a table it reads is read in pieces (a
   * rule set's two-player table, for a game against someone): fetches the
   * chunks the review needs, as lookup() does.
   */
  async reviewFetching(name, text) {
    for (;;) {
      const [status, body] = this.askReview(name, text);
      if (status !== NEEDED) return this.answer(status, body);
      await supplyTo(this.reader, body, (id) => this.files.get(id));
    }
  }

  askReview(name, text) {
    if (this.reader.exports.dt_review === undefined) throw new Error("this module reviews no game: open the tables with the whole module ({ wasm })");
    if (typeof name !== "string" || typeof text !== "string") throw new TypeError("review(name, text): a rule set's name and the game's text");
    return this.reader.status("dt_review", name, text);
  }

  /** The Error of a call (`what`) that needs a chunk not yet fetched (`needed`: `GAME OFFSET LEN`); `fetching` fetches it. */
  notFetched(needed, what, fetching) {
    const [id, offset, len] = needed.split(" ");
    const end = Number(offset) + Number(len) - 1;
    return new Error(`${id} table: this ${what} needs bytes ${offset}-${end} of ${this.files.get(id)?.url}, not fetched yet: ${fetching} fetches them`);
  }

  /**
   * The answer of `game` to `query`: exactly the object `reader lookup
   * GAME ... --json` prints. A bad query throws an Error (a TypeError for an
   * argument the lookup does not take or lacks) whose message is the
   * lookup layer's, naming arguments as in the query (`rerolls=1 needs dice`).
   */
  async lookup(game, query) {
    for (;;) {
      const [status, text] = this.ask(game, query);
      if (status !== NEEDED) return this.answer(status, text);
      // A table read in pieces needs a chunk: fetched, checked, kept; then asked again.
      await supplyTo(this.reader, text, (id) => this.files.get(id));
    }
  }

  /**
   * {@link Tables#lookup} without a promise, for a program's hot loop: a
   * lookup that needs a chunk not yet fetched of a table read in pieces
   * throws (lookup() fetches it).
   */
  lookupSync(game, query) {
    const [status, text] = this.ask(game, query);
    if (status === NEEDED) throw this.notFetched(text, "lookup", "lookup()");
    return this.answer(status, text);
  }

  ask(game, query) {
    if (typeof game !== "string") throw new TypeError("game: expected a game's name, like \"yahtzee\"");
    return this.reader.status("dt_lookup", game, encoder.encode(queryString(query)));
  }

  answer(status, text) {
    if (status === OK) return JSON.parse(text);
    throw status === BAD_ARGUMENT ? new TypeError(text) : new Error(text);
  }
}

/**
 * Opens tables: `{ yahtzee: bytesOrUrl, yatzy: ..., ... }`, each the bytes
 * of a `.dtab` file (a Uint8Array, a Buffer or an ArrayBuffer) or a URL to
 * fetch it from, checked whole (its header, every chunk's blake3, the
 * game's own checks) before the promise resolves; or `{ url, ranges: true
 * }`, read in pieces over HTTP range requests (the header and the chunks
 * its checks read now, each other chunk when a lookup first needs it).
 */
export async function openTables(tables, options = {}) {
  if (typeof tables !== "object" || tables === null || Array.isArray(tables)) {
    throw new TypeError('openTables takes an object of tables, like { yahtzee: "tables/yahtzee.dtab" }');
  }
  const entries = Object.entries(tables);
  const whole = entries.filter(([, source]) => !isRanged(source));
  const [module, ...bytes] = await Promise.all([
    loadModule(options.wasm),
    ...whole.map(([game, source]) => tableBytes(game, source)),
  ]);
  const reader = new Reader(await WebAssembly.instantiate(module, {}));
  const files = new Map();
  const games = [];
  for (const [game, source] of entries) {
    if (isRanged(source)) {
      const [id, file] = await openPieces(reader, game, source.url);
      files.set(id, file);
      games.push(id);
    } else {
      games.push(reader.call("dt_open", game, bytes[whole.findIndex(([g]) => g === game)]));
    }
  }
  return new Tables(reader, games, files);
}
