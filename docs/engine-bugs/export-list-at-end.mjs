// Boa 0.22: an export list is not ended by the end of the input.
//
// ECMA-262's automatic semicolon insertion ends `export { a }` when the input ends (rule 2:
// "the end of the input stream of tokens is encountered"), as it ends `const b = 1` or
// `export default 1`. Boa 0.22's parser instead reports "SyntaxError: abrupt end" for a module
// whose last statement is an export list without `;` (a common style: `export { a, b }` as a
// file's last line). Run it as a module in a Boa 0.22 host without the workaround:
//
//   expected: prints "parsed", exits 0
//   Boa 0.22: SyntaxError: abrupt end
//
// The host appends "\n;" to every module's text before parsing (crates/host/src/modules.rs,
// `with_final_semicolon`), so `boa-streams docs/engine-bugs/export-list-at-end.mjs` prints
// "parsed".
const a = 1;
console.log("parsed");
export { a }