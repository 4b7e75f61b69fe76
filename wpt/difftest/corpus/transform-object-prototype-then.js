// Object.prototype.then getter through a TransformStream: reads resolve with result objects
// (then looked up on each); writes and close resolve with undefined.
let armed = true;
const ts = new TransformStream({ transform(ch, c) { c.enqueue({ ch }); } });
Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() { if (armed) log('get then on', Object.keys(this).sort()); return undefined; },
});
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
const ps = [r.read(), w.write(1), r.read(), w.close()];
Promise.all(ps).then((v) => { armed = false; delete Object.prototype.then; log('done', v.length); });
