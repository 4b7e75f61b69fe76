// Minimal repro: Boa 0.22.0 leaves stale values on the VM operand stack when an exception thrown
// in a nested JS frame unwinds to a frame that native code called, and the native code catches
// it (see docs/engine-bugs/README.md, id native-catch-stack).
// Expected (spec, V8, SpiderMonkey): prints "g ok".
// Boa 0.22.0: throws TypeError "not a callable function" at the call of g: pipeTo() (native)
// calls the `preventAbort` getter, which calls m(), which throws; pipeTo catches the exception
// and returns a rejected promise (as WebIDL requires), but the getter frame's values stay on the
// stack and shift the pending arguments of the outer call g(...).
const options = {
  m() { throw new Error('from a nested frame'); },
  get preventAbort() { this.m(); return false; },
};
function g(a, b, promise, d) { promise.catch(() => {}); return 'g ok'; }
console.log(g(1, 2, new ReadableStream().pipeTo(new WritableStream(), options), 'd'));
