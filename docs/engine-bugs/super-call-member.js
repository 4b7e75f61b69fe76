// Boa 0.22 (and the series): a member access on a super call, `super(...).x` or
// `super(...).then(...)`, is a SyntaxError ("expected token ';', got '.'"). SuperCall is a
// CallExpression, so a MemberExpression may follow it (source-map 0.7's
// BasicSourceMapConsumer does `return super(INTERNAL).then(...)`).
// Expected (Node): 2
class A {
  constructor() {
    this.x = 1;
  }
}
class B extends A {
  constructor() {
    super().x = 2;
    console.log(this.x);
  }
}
new B();
