// What the page's games share: element lookup, table cells, and each table
// file opened once (fetched and checked whole by the npm package's reader).
import { openTables } from "./dice-tables/index.js";

export const $ = (sel) => document.querySelector(sel);

export function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

const opened = new Map();

/** The tables holding game `id`'s file at `url`, opened on the first call: resolves to { t, url }. */
export function openOnce(id, url) {
  if (!opened.has(url)) opened.set(url, openTables({ [id]: url }).then((t) => ({ t, url })));
  return opened.get(url);
}
