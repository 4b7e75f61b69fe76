// Shared bench harness: loaded before each bench script by the bench runner
// (benches/src/lib.rs). Every bench compares variants run in the same process, and reports
// ratios to a baseline, because absolute numbers on a shared machine are noise.
globalThis.__benchResults = [];
globalThis.bench = async function bench(name, n, body) {
  // Warm up a little (inline caches, shapes), then measure.
  await body(Math.max(1, Math.floor(n / 10)));
  const t0 = performance.now();
  await body(n);
  const ms = performance.now() - t0;
  const nsPerOp = (ms * 1e6) / n;
  __benchResults.push({ name, n, ms, nsPerOp });
  return nsPerOp;
};
globalThis.report = function report(baselineName) {
  const base = __benchResults.find((r) => r.name === baselineName);
  for (const r of __benchResults) {
    const ratio = base ? (r.nsPerOp / base.nsPerOp).toFixed(2) : "-";
    console.log(
      `${r.name.padEnd(44)} ${r.nsPerOp.toFixed(0).padStart(8)} ns/op  ${String(ratio).padStart(6)}x ${baselineName}`
    );
  }
};
