// Minimal repro: Boa 0.22.0 reserves memory for an array-like's whole `length` up front in
// Array.prototype.join, toLocaleString and sort (and toSorted): a length near 2^40 (any
// length up to 2^53 - 1 is valid) makes the reservation fail and the Rust allocator aborts the
// process ("memory allocation of ... bytes failed"), which no script or embedder can catch.
// Expected (spec, V8, SpiderMonkey): a long-running loop over the holes that a time limit
// stops, or an error; never a process abort. Here each call is given a length whose getter
// throws after the reservation would have happened, so a fixed engine prints "ok" three times.
let reads = 0;
function huge() {
  return {
    get length() { return 2 ** 40; },
    get 0() { throw new Error("stop"); },
  };
}
for (const f of [Array.prototype.join, Array.prototype.toLocaleString, Array.prototype.sort]) {
  try {
    f.call(huge());
  } catch (e) {
    console.log(e.message === "stop" ? "ok" : "unexpected: " + e);
  }
}
