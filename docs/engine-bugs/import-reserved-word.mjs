// Minimal repro: Boa 0.22.0's parser rejects an import specifier whose imported name is
// `null`, `true` or `false` (`import { null as n } from "..."`), although ModuleExportName is
// any IdentifierName (ECMA-262 16.2.2) and the export side accepts `export { x as null }`.
// The `ai` SDK's dist imports this way.
// Expected (spec, V8, SpiderMonkey): prints "1 2 3".
// Boa 0.22.0: SyntaxError: expected token 'identifier', got 'null' in import declaration.
import { null as n, true as t, false as f } from "./import-reserved-word.mjs";
const a = 1, b = 2, c = 3;
export { a as null, b as true, c as false };
console.log(n, t, f);
