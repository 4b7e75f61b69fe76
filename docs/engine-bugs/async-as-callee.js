// Boa 0.22 (and the series): a call of a function named `async` whose arguments are not
// followed by `=>` is a SyntaxError: the parser commits to an async arrow function
// (`async(...)` is a CallExpression unless `=>` follows; asynckit, under form-data and so under
// axios, and @firebase/storage call their helper named `async`).
// Expected (Node): called
function async(f) {
  return f;
}
const g = async(() => "called");
console.log(g());
