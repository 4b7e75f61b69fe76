// Boa 0.22.0 parses, analyzes, compiles and drops source text recursively, one native stack
// frame group per nesting level, with no depth limit: deeply nested text overflows the native
// stack and aborts the whole process (SIGABRT, "thread has overflowed its stack"), and any
// script can reach it through `eval` or `new Function`. Left-deep operator chains
// (`a + a + ... + a`, `o.p.p.p...`) parse in a loop but build an AST as deep as the chain,
// which the later passes recurse over.
//
//   boa-streams docs/engine-bugs/deep-nesting-stack-overflow.js
//
// expected: every line "SyntaxError" (V8 and SpiderMonkey throw a RangeError), then "done"
// Boa 0.22 (stock): the process aborts before "done" (on an embedder's 2 MiB thread already at
//           100 nested parentheses; the host's 256 MiB stack only moves the threshold). With the
//           series (patch 0009-parser-depth-limit) every line is a SyntaxError; the host lets
//           its parser use 64 MiB of stack, an embedder's default is 1 MiB.
const cases = {
  parens: "(".repeat(10000) + "1" + ")".repeat(10000),
  arrays: "[".repeat(100000) + "]".repeat(100000),
  calls: "f(".repeat(10000) + "1" + ")".repeat(10000),
  blocks: "{".repeat(100000) + "}".repeat(100000),
  plus: "a+".repeat(300000) + "a",
  unary: "- ".repeat(1000000) + "1",
};
for (const [name, text] of Object.entries(cases)) {
  try {
    eval(text);
    console.log(name + ": no error");
  } catch (e) {
    console.log(name + ": " + e.name);
  }
}
try {
  new Function("return " + "(".repeat(10000) + "1" + ")".repeat(10000));
  console.log("Function: no error");
} catch (e) {
  console.log("Function: " + e.name);
}
console.log("done");
