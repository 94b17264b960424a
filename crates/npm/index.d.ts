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
   * KEPT` or `DICE score BOX`; against someone each line may begin with its
   * player's number, `2: DICE keep KEPT`, or the header say `players: 2`;
   * a game of 10000, `duel` or `10000`, one throw a line, `DICE keep KEPT
   * throw`; a turn of threes, `DICE keep KEPT`;
   * the tables it reads opened whole) reviewed: exactly what `reader
   * review NAME FILE --json` prints. Throws an Error naming a line that
   * breaks the rules.
   */
  review(name: string, text: string): Review;
  /**
   * {@link Tables.review} where a table it reads is read in pieces (a rule
   * set's two-player table, for a game against someone): fetches the
   * chunks the review needs, as lookup() does.
   */
  reviewFetching(name: string, text: string): Promise<Review>;
}

/** A game reviewed, as `reader review NAME FILE --json` prints it. */
export type Review = {
  game: string;
  /** Played for a final score of at least this many points (values in the chance of reaching it). */
  target?: number;
  /**
   * The start's value: the expected final score; played for a target, the
   * chance of reaching it; against someone, player 1's chance of winning.
   */
  start: number;
  /** The final score, once a game alone is over (and, played for a target, whether it reached it). */
  score?: number;
  reached?: boolean;
  /** Against someone, once the game is over: each player's points, and player 1's outcome (1 won, 0.5 tied, 0 lost). */
  scores?: [number, number];
  outcome?: number;
  /** Against someone, a box served that won the game at once. */
  won_at_once?: { player: number; category: string };
  /** Against someone, under way: each player's points so far. */
  scored?: [number, number];
  /** Boxes still open (against someone, each player's) and player 1's value where the text stops, for a game under way. */
  open?: number | [number, number];
  now?: number;
  /** What the dice brought and what the decisions gave away (alone; against someone, under `players`). */
  luck?: number;
  loss?: number;
  /** 100 · exp(−4 · loss / start). */
  accuracy?: number;
  /** On the Elo scale (random play 0); null for rules with no reference players' figures. */
  rating?: number | null;
  /** Against someone: each player's start, luck, losses, accuracy and rating, in their own chance of winning. */
  players?: { player: number; start: number; luck: number; loss: number; accuracy: number; rating: number | null }[];
  /** 10000 against someone: the goal, the entry, each player's banked total and turns begun. */
  goal?: number;
  entry?: number;
  totals?: [number, number];
  turns?: number | [number, number];
  /** 10000 alone: a turn's expected banked points, and the points banked where the text stops mid-turn. */
  turn_start?: number;
  banked?: number;
  /** threes: where the player stands, and the total once all five dice are kept (else `points` and `dice_left`). */
  record?: number | null;
  after?: number;
  ties?: "win" | "lose";
  model?: "sequential" | "independent";
  total?: number;
  points?: number;
  dice_left?: number;
  decisions: {
    line: number;
    /** Against someone: who took it, 1 or 2 (its values are in that player's chance). */
    player?: number;
    dice: string;
    /** A score sheet's game: the rerolls left. */
    rerolls?: number;
    /** 10000: the turn score before the throw, and `bust` for a throw that scored nothing (no `chosen`, `best`). */
    score?: number;
    bust?: true;
    /** threes: the points kept before the roll. */
    points?: number;
    chosen?: Record<string, unknown>;
    best?: Record<string, unknown>;
    before: number;
    value: number;
    chosen_value?: number;
    luck: number;
    loss: number;
    accuracy: number;
    /**
     * Where the decision gave something away and the rule set's parts table
     * is open: why the best option is better, each box's and bonus's
     * expected points (the best's less the chosen's, the largest first; they
     * add up to `loss`) and a sentence naming the largest. 10000: the
     * keep's part and banking or throwing on's, which add up to `loss`.
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
