// What the page's parts share: element lookup, table cells, the dice, and
// where answers come from (backend.js: the WebAssembly reader on a static
// site, the HTTP API under `reader serve`).
export { availability, tableFor } from "./backend.js";

export const $ = (sel) => document.querySelector(sel);

export function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

export const percent = (p, digits = 2) => `${(100 * p).toFixed(digits)} %`;

/** A list kept in the browser's storage under `key` (drills: the player's larger mistakes), newest first; empty if none or unreadable. */
export function storedList(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}
/**
 * A drill's options as buttons in `holder`, in a fixed order (by their
 * words), none marked: each `o` worded by `text`, with `data(o)` in the
 * button's data, and `answer(o)` on a tap.
 */
export function offerDrill(holder, options, text, data, answer) {
  const buttons = options.map((o) => {
    const b = Object.assign(document.createElement("button"), { type: "button", textContent: text(o) });
    Object.assign(b.dataset, data(o));
    b.addEventListener("click", () => answer(o));
    return b;
  });
  holder.replaceChildren(...buttons.sort((a, b) => a.textContent.localeCompare(b.textContent)));
}

/** Keeps `list` under `key`, its first `most` entries. */
export function storeList(key, list, most) {
  try {
    localStorage.setItem(key, JSON.stringify(list.slice(0, most)));
  } catch {
    // Storage off or full: nothing kept.
  }
}

/** mulberry32: a seeded generator when the page is opened with ?seed=N (tests), else Math.random. */
function randomSource() {
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed === null) return Math.random;
  let a = Number(seed) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = randomSource();
/** One die's throw. */
export const die = () => 1 + Math.floor(random() * 6);

let tappedAt = 0;
addEventListener("click", (e) => { tappedAt = e.timeStamp; }, true);
/** Milliseconds from the player's last tap: how long an advice took (read by the browser tests). */
export const sinceTap = () => (performance.now() - tappedAt).toFixed(1);
