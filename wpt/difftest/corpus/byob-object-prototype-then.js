// Object.prototype.then getter during BYOB reads (from the queue, via respond, and at close).
let armed = true;
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; c.enqueue(new Uint8Array([1])); } });
const r = rs.getReader({ mode: 'byob' });
Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() { if (armed) log('get then on', Object.keys(this).sort()); return undefined; },
});
const p1 = r.read(new Uint8Array(1));
const p2 = r.read(new Uint8Array(2));
ctrl.byobRequest.view[0] = 9;
ctrl.byobRequest.respond(1);
const p3 = r.read(new Uint8Array(2));
ctrl.close();
ctrl.byobRequest.respond(0);
Promise.all([p1, p2, p3]).then((v) => { armed = false; delete Object.prototype.then; log('results', v); });
