// Minimal repro: Boa 0.22.0 generator return() does not close the iterator of a for-of (or
// for-await-of) loop the generator is suspended in (see docs/engine-bugs/README.md).
// ECMA-262: a `return` completion at a `yield` inside a for-of body leaves the loop through
// ForIn/OfBodyEvaluation, whose abrupt completion runs IteratorClose (AsyncIteratorClose for
// for-await), i.e. calls the loop iterator's return(). `yield*` and try/finally are not
// affected (shown for comparison).
// Expected (spec, V8, SpiderMonkey): prints "for-of, yield*, finally, for-await".
// Boa 0.22.0: prints "yield*, finally": the for-of and for-await loops' iterators are
// never closed, so a resource behind them (a stream reader's lock, a file handle, a
// ReadableStream.from() source iterated inside a generator) stays held.
// With the series (patch 0010-generator-return-iterator-close): prints the expected line.
const log = [];
function inner(name) {
  return {
    [Symbol.iterator]() { return this; },
    [Symbol.asyncIterator]() { return this; },
    next() { return { value: 1, done: false }; },
    return() { log.push(name); return { done: true }; },
  };
}
function* viaForOf() { for (const x of inner("for-of")) yield x; }
function* viaYieldStar() { yield* inner("yield*"); }
function* viaTryFinally() { try { yield 1; } finally { log.push("finally"); } }
async function* viaForAwait() { for await (const x of inner("for-await")) yield x; }
for (const g of [viaForOf, viaYieldStar, viaTryFinally]) {
  const it = g();
  it.next();
  it.return();
}
const a = viaForAwait();
a.next().then(() => a.return()).then(() => console.log(log.join(", ")));
