// Where the rule sets' tab (rules.js) gets its answers under `reader
// serve`: the server's tables (GET v1/info) and lookups (GET
// v1/lookup/NAME?ARGS) and reviews (GET v1/review/NAME?game=TEXT). A static site has rules-wasm.js in this file's place.

import { getJson } from "./backend.js";

/**
 * The rule sets' tables the server serves, as v1/info lists them: each
 * one's file stem (`game`), boxes, dice, rerolls and bonus; a target,
 * two-player or parts table with `target`, `duel` or `parts` and its `rule_set_name`.
 */
export const ruleSets = async () => (await getJson("v1/info")).tables.filter((t) => t.rule_set && !t.error);

/** Rule set `name`'s answer to `query`: the server reads the table it takes (its two-player table against an opponent, where it has one). */
export const ruleLookup = (name, query) => getJson(`v1/lookup/${name}?${new URLSearchParams(query)}`);

/** A game of rule set `name` (its text, as the page writes it) reviewed: v1/review, with each mistake's reason where the server holds the parts table. */
export const ruleReview = (name, text) => getJson(`v1/review/${name}?${new URLSearchParams({ game: text })}`);
