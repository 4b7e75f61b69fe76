// Boa 0.22.0 runs the bulk methods of typed arrays element by element through the generic
// property paths: `fill` does a full `Set` (ToString of the index, the exotic [[Set]]) per
// element, `indexOf`/`lastIndexOf`/`includes` a `Get` plus a JsValue comparison per element,
// `set` from an Array a `Get` and a conversion through JsValue per element, `set`/`slice`
// between element types a JsValue round trip per element.
//
//   boa-streams docs/engine-bugs/typed-array-bulk-speed.js
//
// expected: each line in milliseconds (V8: fill 100 MiB ~0.1 s, the rest a few ms to tens)
// Boa 0.22 (stock, host debug build, engine opt-level 3): fill 100 MiB ~10 s,
//           indexOf over 16 MiB ~1.6 s (with the series: patch 0008-typed-array-bulk-ops)
const now = () => Date.now();
function time(name, f) {
  const t = now();
  const r = f();
  console.log(name + ": " + (now() - t) + " ms (" + r + ")");
}
const MiB = 1024 * 1024;
const big = new Uint8Array(100 * MiB);
time("fill 100 MiB", () => big.fill(1)[100 * MiB - 1]);
const s16 = new Uint8Array(16 * MiB);
time("indexOf (miss) 16 MiB", () => s16.indexOf(1));
time("includes (miss) 16 MiB", () => s16.includes(1));
const i8 = new Int8Array(MiB).fill(-3);
time("set Float32Array from 1M Int8Array", () => { const f = new Float32Array(MiB); f.set(i8); return f[0]; });
const arr = Array.from({ length: 1e6 }, (_, i) => i);
time("set Float64Array from Array of 1M", () => { const d = new Float64Array(1e6); d.set(arr); return d[999999]; });
time("slice 16 MiB", () => s16.slice().length);
time("copyWithin 16 MiB", () => s16.copyWithin(1, 0)[0]);
