/**
 * A table file's bytes, or a URL (absolute, or relative to the page) to
 * fetch them from; or `{ url, ranges: true }`: the table read in pieces
 * over HTTP range requests (its header now, each chunk the first time a
 * lookup needs it, checked against its blake3 and kept). The server must
 * honour Range: one that answers with the whole file is refused in one line.
 */
export type TableSource = Uint8Array | ArrayBuffer | string | URL | { url: string | URL; ranges: true };

/**
 * A lookup's arguments: the flags of `reader lookup GAME` without their
 * dashes (`mask`, `upper`, `dice`, `rerolls`, `yahtzee-bonus`, `need`,
 * `opp-mask`, `opp-upper`, `opp-yahtzee-bonus`, `me`, `opp`, `to-move`, `advisor`, ...).
 * A flag that takes no value is `true` (or `false`, the same as leaving it out).
 */
export type Query = Record<string, string | number | boolean | null | undefined>;

/** An answer: exactly the JSON object `reader lookup GAME ... --json` prints. */
export type Answer = { game: string; [field: string]: unknown };

export interface Tables {
  /** The ids of the games whose tables are open, in the order given. */
  readonly games: string[];
  /**
   * The answer of `game` (`"yahtzee"`, `"yatzy"`, `"yazy"`, `"threes"`,
   * `"tenk"`, `"combo"`, `"duel"`, ...) to `query`. Rejects with an Error
   * whose message is the lookup layer's (a TypeError for an argument the
   * lookup does not take or lacks).
   */
  lookup(game: string, query?: Query): Promise<Answer>;
  /**
   * `lookup` without a promise. Throws what `lookup` rejects with, and
   * when a table read in pieces needs a chunk not fetched yet (`lookup`
   * fetches it).
   */
  lookupSync(game: string, query?: Query): Answer;
  /** Bytes fetched by range requests so far, over every table read in pieces. */
  readonly fetched: number;
  /**
   * The rule sets' tables open (their own, `-target` and `-duel` tables),
   * each described as `reader serve`'s `v1/info` lists it.
   */
  ruleSets(): RuleSetInfo[];
  /**
   * The game `text` of rule set `name` (one decision a line, `DICE keep
   * KEPT` or `DICE score BOX`; its own table opened whole) reviewed:
   * exactly what `reader review NAME FILE --json` prints. Throws an Error
   * naming a line that breaks the rules.
   */
  review(name: string, text: string): Review;
}

/** A game reviewed, as `reader review NAME FILE --json` prints it. */
export type Review = {
  game: string;
  /** The start's value: the expected final score. */
  start: number;
  /** The final score, once the game is over. */
  score?: number;
  /** Boxes still open and the value where the text stops, for a game under way. */
  open?: number;
  now?: number;
  /** What the dice brought and what the decisions gave away, in expected points. */
  luck: number;
  loss: number;
  /** 100 · exp(−4 · loss / start). */
  accuracy: number;
  /** On the Elo scale (random play 0); null for rules with no reference players' figures. */
  rating: number | null;
  decisions: {
    line: number;
    dice: string;
    rerolls: number;
    chosen: Record<string, unknown>;
    best: Record<string, unknown>;
    before: number;
    value: number;
    chosen_value: number;
    luck: number;
    loss: number;
    accuracy: number;
    /**
     * Where the decision gave something away and the rule set's parts table
     * is open: why the best option is better, each box's and bonus's
     * expected points (the best's less the chosen's, the largest first; they
     * add up to `loss`) and a sentence naming the largest.
     */
    reason?: { text: string; parts: Record<string, number> };
  }[];
  /** The lines of the five largest mistakes, largest first. */
  largest_mistakes: number[];
};

/** A rule set's table as `ruleSets()` lists it. */
export type RuleSetInfo = {
  /** The file's stem: the rule set's name, or `NAME-target`, `NAME-duel`. */
  game: string;
  rule_set: true;
  /** For a target or two-player table: the rule set's name, asked in lookups. */
  rule_set_name?: string;
  target?: true;
  duel?: true;
  boxes: string[];
  dice: number;
  rerolls: number;
  saved_rerolls: boolean;
  order: string;
  upper_bonus?: { boxes: string[]; at: number; points: number };
  held_boxes: string[];
  wins_at_once: string[];
};

export interface OpenOptions {
  /** The module's bytes, when `dice_tables.wasm` beside this file cannot be read or fetched. */
  wasm?: Uint8Array | ArrayBuffer;
}

/**
 * Opens the tables of some games, keyed by game: each checked whole (header,
 * every chunk's blake3, the game's own checks) before the promise resolves.
 */
export function openTables(tables: Record<string, TableSource>, options?: OpenOptions): Promise<Tables>;
