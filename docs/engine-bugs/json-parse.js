// Minimal repro: Boa 0.22.0's JSON.parse validates the text with serde_json before parsing it
// and so rejects valid JSON (see docs/engine-bugs/README.md, `json-parse`).
// Expected (spec, V8, SpiderMonkey): prints "1 Infinity 200" with no error.
// Boa 0.22.0 (the engine's own JSON.parse): a SyntaxError for each of the three texts.
// boa-streams (crates/json's JSON.parse installed): prints the expected line.
const lone = JSON.parse('"\\ud83c"').length;
const big = JSON.parse("1e400");
let depth = 0;
for (let v = JSON.parse("[".repeat(200) + "]".repeat(200)); Array.isArray(v); v = v[0]) depth++;
console.log(lone, big, depth);
