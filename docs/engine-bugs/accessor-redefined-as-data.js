// Minimal repro: Boa 0.22.0 property read site that first met an accessor whose getter
// redefines the property as a data property (see docs/engine-bugs/README.md).
// zod v4 defines an object schema's `shape` exactly this way (a lazy getter that replaces
// itself with the computed value), so zod object schemas fail in any Boa 0.22 host.
// Expected (spec, V8, SpiderMonkey): prints "1 1" and "ok".
// Boa 0.22.0: the second call throws "TypeError: not a callable function".
function make() {
  const o = {};
  Object.defineProperty(o, "shape", {
    configurable: true,
    get() {
      Object.defineProperty(o, "shape", { value: 1, configurable: true });
      return o.shape;
    },
  });
  return o;
}
function read(o) {
  return o.shape;
}
const a = make();
const first = read(a);
const second = read(a);
console.log(first, second);
// Two objects of the same shape through the same read site fail the same way.
const b = make();
read(b);
read(b);
console.log("ok");
