// Boa 0.22.0 has no way to stop a running script from outside (issue 31's time limit).
// Its only budget, RuntimeLimits' loop-iteration limit, counts each loop separately (a script
// that runs many short loops, or recursion without loops, never reaches it) and is not
// checked inside long native operations: `new Array(1e8).fill(0)` or a 100 MiB
// `Uint8Array.fill` run for seconds in a single native call.
//
//   boa-streams --cpu-time-limit-ms=200 docs/engine-bugs/no-interrupt.js [fill|typed]
//
// expected: each part is stopped within the budget: the host reports "LimitExceeded: CPU time
//           limit of 200 ms exceeded" and exits 1 (not catchable by the script's own `try`)
// Boa 0.22 (stock): nothing can stop it (with the series: patch 0001-interrupt-hook)
try {
  const part = globalThis.scriptArgs ? scriptArgs[0] : undefined;
  if (part === "fill") {
    new Array(1e9).fill(0);
  } else if (part === "typed") {
    for (;;) new Uint8Array(64 << 20).fill(1);
  } else {
    for (;;) {}
  }
} catch (e) {
  console.log("caught: " + e); // never printed: the interrupt is not catchable
}
