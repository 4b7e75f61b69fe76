// Minimal repro: Boa 0.22.0 panics ("binding must exist", bytecompiler/statement/loop.rs)
// compiling a `for (let ...)` loop inside a function that sits in a class method's computed
// key. TypeScript emits exactly this for a class with #private methods and a computed member
// such as [Symbol.asyncIterator] (the private methods become functions assigned inside the
// first computed key), e.g. the openai SDK: the host exits 70.
// Cause: the scope analysis (boa_ast scope_analyzer.rs) visits the computed name of a class
// field but not that of a class method, so the function's scopes are never filled in.
// Expected (spec, V8, SpiderMonkey): prints "3".
// Boa 0.22.0: engine panic "binding must exist" (boa-streams exits 70).
var _sum;
class C {
  [(_sum = function () {
    let s = 0;
    for (let i = 0; i < 3; i++) s += i;
    return s;
  }, "run")]() {
    return _sum();
  }
}
console.log(new C().run());
