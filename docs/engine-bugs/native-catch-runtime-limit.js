// Minimal repro: Boa 0.22.0 makes the recursion limit (and the value-stack and loop limits) an
// engine error that script cannot catch (see docs/engine-bugs/README.md, id
// native-catch-stack). Other engines throw a catchable RangeError.
// Expected (spec-conforming engines): prints "caught RangeError" twice and "g ok".
//
// 1. The engine alone: try/catch does not catch it; Boa 0.22.0 aborts the script here
//    ("RuntimeLimitError: reached the maximum number of recursive calls"), so the lines below
//    it never run. Comment part 1 out to see parts 2 and 3.
// 2. boa_streams converts it: a callback or conversion that hits the limit while the library
//    catches its exception (here `pull()`) rejects with a RangeError, and a constructor that
//    rethrows (here `start()`) throws a catchable RangeError.
// 3. A `then` getter whose OWN code hits the limit while Boa's promise resolve function reads
//    it cannot be settled: the resolve function has consumed its resolving functions when
//    the engine error comes back, and returns it without rejecting. Boa offers no other way
//    to settle the promise, so it stays pending (the residual case; prints nothing).
function rec() { return rec() + 1; }
function fail() { throw new Error('x'); }
function g(a, b, p, d) { if (p instanceof Promise) p.catch(() => {}); return 'g ok'; }

try { rec(); } catch (e) { console.log('caught ' + e.name); } // part 1: uncatchable in Boa

try { new ReadableStream({ start() { rec(); } }); } catch (e) { console.log('caught ' + e.name); }
new ReadableStream({ pull() { rec(); } }).getReader().read()
  .catch((e) => console.log('caught ' + e.name));
console.log(g(1, 2, new ReadableStream({ cancel() { rec(); } }).cancel(), 'd'));

const reader = new ReadableStream({ start(c) { c.enqueue(1); } }).getReader();
Object.defineProperty(Object.prototype, 'then', { configurable: true, get() { return rec(); } });
reader.read().then(() => console.log('residual: fulfilled'), () => console.log('residual: rejected'));
delete Object.prototype.then;
