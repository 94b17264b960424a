// The module's size, as the npm package's README and the guide give it:
// one figure in both, within 2% of the module `make npm` built.
// Usage: node size.mjs MODULE.wasm DOC.md...
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import assert from "node:assert/strict";

const [modulePath, ...docs] = process.argv.slice(2);
const bytes = readFileSync(modulePath);
const actual = { kb: bytes.length / 1000, gzipped: gzipSync(bytes, { level: 9 }).length / 1000 };
const figure = /\((\d+) KB, (\d+) KB gzipped\)/;
const given = docs.map((doc) => {
  const found = readFileSync(doc, "utf8").match(figure);
  assert.ok(found, `${doc} gives no "(N KB, M KB gzipped)" figure for the module`);
  return { doc, kb: Number(found[1]), gzipped: Number(found[2]) };
});
for (const g of given) {
  assert.deepEqual([g.kb, g.gzipped], [given[0].kb, given[0].gzipped], `${g.doc} and ${given[0].doc} differ`);
  for (const key of ["kb", "gzipped"]) {
    const off = Math.abs(g[key] - actual[key]) / actual[key];
    assert.ok(off <= 0.02, `${g.doc} says ${g[key]} KB${key === "gzipped" ? " gzipped" : ""}; the module is ${actual[key].toFixed(1)} KB: write ${Math.round(actual[key])}`);
  }
}
console.log(`npm: the module is ${bytes.length} bytes (${Math.round(actual.gzipped)} KB gzipped), as ${docs.join(" and ")} say`);
