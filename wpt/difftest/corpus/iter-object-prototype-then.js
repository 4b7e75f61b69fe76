// Object.prototype.then getter during async iteration: next() and return() results are
// resolved the spec way (the then lookups are observable).
let armed = true;
const rs = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
const it = rs.values();
Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() { if (armed) log('get then on', Object.keys(this).sort()); return undefined; },
});
const ps = [it.next(), it.next(), it.return('x')];
Promise.all(ps).then((v) => { armed = false; delete Object.prototype.then; log('results', v); });
