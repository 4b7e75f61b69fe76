// Minimal repro: Boa 0.22.0 leaves stale values on the VM operand stack when an exception thrown
// in a nested JS frame unwinds to a frame that native code called, and the native code catches
// it (see docs/engine-bugs/README.md, id native-catch-stack).
// Expected (spec, V8, SpiderMonkey): prints "g ok" twice.
//
// 1. The engine alone: Promise.resolve (native) reads `then`, whose getter calls fail(), which
//    throws; the promise's resolve function catches the exception and rejects (as the spec
//    requires), but the getter frame's values stay on the stack and shift the pending
//    arguments of the outer call g(...). Boa 0.22.0 throws TypeError "not a callable function".
// 2. Our library hits the same path whenever a user callback throws from a nested frame and the
//    spec turns the exception into a rejected promise (here rs.cancel() calling the source's
//    cancel()). boa_streams works around it (webidl::call_catching), so this one prints "g ok".
function fail() { throw new Error('from a nested frame'); }
function g(a, b, promise, d) { promise.catch(() => {}); return 'g ok'; }
try {
  console.log(g(1, 2, Promise.resolve({ get then() { fail(); } }), 'd'));
} catch (e) {
  console.log('engine bug: ' + e);
}
const rs = new ReadableStream({ cancel() { fail(); } });
console.log(g(1, 2, rs.cancel(), 'd'));
