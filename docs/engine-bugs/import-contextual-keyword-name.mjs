// Boa 0.22 (and the series): `import { of }` is a SyntaxError ("expected token 'as'"): the
// import specifier parser wants `as` after a name it takes for a keyword, though `of` is an
// ordinary identifier (rxjs's ES module build imports `of`).
// Expected (Node): 1
import { of } from "./import-contextual-keyword-name-of.mjs";
console.log(of);
