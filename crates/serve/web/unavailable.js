// The setup's choices a missing table rules out, on a page `reader serve`
// serves (its v1/info lists the tables it has): those options disabled and
// labelled, and where the game on the page needs a missing table, a note
// saying so to the player, with what builds the table (the server's own
// words) in a detail for whoever runs it. A static site holds every table
// its page reads and never loads this file.
import { $, availability } from "./page.js";

// The rule sets the server holds get a tab of their own (rules.js): like
// this file, only ever loaded under reader serve. A server that cannot say
// which it holds (v1/info failing) shows the page without the tab; the
// games' own lookups report what is wrong.
import("./rules.js").then((m) => m.offer()).catch(() => {});

/** What each choice of the setup's opponent reads (see play.js's `reads`). */
const READS = { "": "points", target: "target", computer: "against", table: "against" };
/** Choices a missing table can rule out, as the note names them. */
const ASKED = {
  target: "Playing for a score", computer: "Playing against the computer", table: "Two players at this table",
  free: "The free joker reading", swedish: "The swedish rules",
};
/** Why the game on the page is not what was asked (a table missing), until the player sets up another. */
let setUpWithout = null;

/** The player chose again: a game set up without a table is no longer news. */
export function forget() {
  setUpWithout = null;
}

/**
 * Marks the choices a missing table rules out for game `g` (the one on the
 * page while `current()` is still it). Where `g` itself needs a missing
 * table, one not yet `begun` is set up again without it (`newGame`), and
 * the note says what is not available.
 */
export async function markAvailable(g, current, { variant, reads, mode, begun, newGame }) {
  const chosenVariant = g.name === "yahtzee" ? ($("#joker").value === "free" ? "free" : null)
    : g.name === "maxi-yatzy" ? ($("#maxi-rules").value === "swedish" ? "swedish" : null) : null;
  const opponents = async () => Object.fromEntries(await Promise.all(
    Object.entries(READS).map(async ([value, r]) => [value, await availability(g.name, chosenVariant, r)]),
  ));
  let gaps;
  try {
    gaps = {
      variant: g.name === "yahtzee" || g.name === "maxi-yatzy"
        ? await availability(g.name, g.name === "yahtzee" ? "free" : "swedish") : null,
      // Maxi Yatzy is played alone for points (see play.js's newGame).
      opponent: g.name === "maxi-yatzy" ? {} : await opponents(),
      game: await availability(g.name, variant(g), reads(g)),
    };
  } catch {
    return; // the tables could not be listed: each lookup says why
  }
  if (current() !== g) return;
  const label = (option, gap) => {
    option.dataset.label ??= option.textContent;
    option.disabled = gap !== null;
    option.textContent = gap ? `${option.dataset.label} (not on this server)` : option.dataset.label;
  };
  for (const select of ["#joker", "#maxi-rules"]) {
    for (const option of $(select).options) label(option, option.index === 0 ? null : gaps.variant);
  }
  for (const option of $("#opponent").options) label(option, gaps.opponent[option.value] ?? null);
  const variantMissing = variant(g) !== null && gaps.variant !== null;
  // Set up again without what is missing where that is a choice (the joker
  // reading or rules asked, an opponent, a score). Where the game's own
  // table is missing (a server holding only other games' tables) it stays
  // as it is: set up again, it would find the same gap, again and again.
  const choice = variantMissing || mode(g) !== null;
  if (gaps.game && !begun && choice) {
    // Without the joker reading or rules asked, or else alone for points.
    setUpWithout = { asked: ASKED[variantMissing ? variant(g) : mode(g)] ?? "This game", missing: gaps.game };
    newGame(g.name, variantMissing ? "forced" : g.joker, variantMissing ? "finnish" : g.rules, null);
    return;
  }
  const note = gaps.game ? { asked: ASKED[mode(g)] ?? "This game", missing: gaps.game, begun: true, own: !choice } : setUpWithout;
  $("#unavailable").hidden = note === null;
  if (note === null) return;
  const unavailable = `${note.asked}: not available here, as this server does not have the table it needs (${note.missing.table})`;
  const then = note.own ? "choose another game" : note.begun ? "start a new game with another choice" : "this game is set up without it";
  $("#unavailable-text").textContent = `${unavailable}; ${then}.`;
  $("#unavailable-how").textContent = note.missing.how;
}
