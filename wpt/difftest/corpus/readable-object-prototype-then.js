// A logging getter on Object.prototype.then observes every promise resolution with an object:
// read() results and cancel() resolution must look up then exactly as the spec does.
// (keys are logged sorted: the read-result key order is a known, accepted difference.)
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; c.enqueue('a'); } });
const r = rs.getReader();
let armed = true;
Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() { if (armed) log('get then on', Object.keys(this).sort()); return undefined; },
});
const p1 = r.read();
const p2 = r.read();
ctrl.enqueue('b');
ctrl.close();
const p3 = r.read();
Promise.all([p1, p2, p3]).then((v) => { armed = false; delete Object.prototype.then; log('results', v); });
