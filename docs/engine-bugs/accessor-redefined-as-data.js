// Minimal repro: Boa 0.22.0 property read site that first met an accessor whose getter turns
// the property into a data property (see docs/engine-bugs/README.md).
// zod v4 defines an object schema's `shape` this way (util.defineLazy: the getter computes
// the value and assigns it, and the setter redefines the property as a data property), so
// zod object schemas fail in any Boa 0.22 host.
// Expected (spec, V8, SpiderMonkey): prints "1 / 1 / 2 / 2".
// Boa 0.22.0: prints "1 / TypeError: not a callable function / 2 / TypeError: not a
// callable function": the second read at the same site still treats the property as the
// accessor it met first and calls the data value (an object here, as zod's shape is) as its
// getter. (With a primitive value the second read happens to work.)
function defineLazy(object, key, compute) {
  Object.defineProperty(object, key, {
    configurable: true,
    get() {
      const value = compute();
      object[key] = value; // runs the setter below
      return value;
    },
    set(v) {
      Object.defineProperty(object, key, { value: v });
    },
  });
}
function read(o) {
  return o.shape;
}
const out = [];
for (const n of [1, 2]) {
  const o = {};
  defineLazy(o, "shape", () => ({ n }));
  for (let i = 0; i < 2; i++) {
    try {
      out.push(read(o).n);
    } catch (e) {
      out.push(String(e));
    }
  }
}
console.log(out.join(" / "));
