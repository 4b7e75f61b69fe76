// Minimal repro: Boa 0.22.0 parses `using` declarations (explicit resource management, shipped
// by Node 24+ and the current browsers) but does not implement them: a `using` declaration in
// a function body panics the engine ("index out of bounds": the function's scope analysis
// creates no binding for it; the host exits 70); in a block it runs as a plain `let` and
// nothing is disposed. `await using`, SuppressedError, `for (using x of ...)` likewise.
// Expected (spec): prints "body", "dispose b", "dispose a", "null".
// Boa 0.22.0: engine panic (boa-streams exits 70).
function resource(name) {
  return { [Symbol.dispose]() { console.log("dispose " + name); } };
}
function f() {
  using a = resource("a"), b = resource("b");
  using c = null;
  console.log("body");
  return c;
}
console.log(String(f()));
