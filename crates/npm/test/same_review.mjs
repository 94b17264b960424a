// Two reviews the same: the same fields and words, each number within
// 1e-9 of the other's (the WebAssembly module and the command line may
// round an accuracy's exp() apart in its last bit). Used by the npm
// package's test and the browser tests.
import assert from "node:assert/strict";

/** Every leaf of `x` as [path, value], in order. */
const leaves = (x, at = "") => (x !== null && typeof x === "object"
  ? Object.entries(x).flatMap(([k, v]) => leaves(v, `${at}/${k}`)) : [[at, x]]);

export function assertSameReview(actual, expected, what) {
  const [a, e] = [leaves(actual), leaves(expected)];
  assert.deepEqual(a.map(([k]) => k), e.map(([k]) => k), `${what}: the same fields`);
  a.forEach(([k, v], i) => {
    const want = e[i][1];
    if (typeof v === "number" && typeof want === "number") assert.ok(Math.abs(v - want) <= 1e-9 * Math.max(1, Math.abs(want)), `${what}: ${k} ${v} against ${want}`);
    else assert.equal(v, want, `${what}: ${k}`);
  });
}
