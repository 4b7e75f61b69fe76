// Minimal repro: Boa 0.22.0 leaves stale values on the VM operand stack when an exception thrown
// in a nested JS frame unwinds to a frame that native code called, and the native code catches
// it (see docs/engine-bugs/README.md, id native-catch-stack).
// Expected (spec, V8, SpiderMonkey): prints "g ok".
// Boa 0.22.0: throws TypeError "not a callable function" at the call of g: rs.cancel() (native)
// calls the source's cancel(), which calls fail(), which throws; the native code catches the
// exception and returns a rejected promise (as the spec requires), but the cancel() frame's
// values stay on the stack and shift the pending arguments of the outer call g(...).
function fail() { throw new Error('from a nested frame'); }
const rs = new ReadableStream({ cancel() { fail(); } });
function g(a, b, promise, d) { promise.catch(() => {}); return 'g ok'; }
console.log(g(1, 2, rs.cancel(), 'd'));
