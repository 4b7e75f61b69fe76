// Object.prototype.then getter while writing/closing/aborting: no object is resolved into a
// promise by the writable machinery (write/close/abort promises resolve with undefined).
let armed = true;
Object.defineProperty(Object.prototype, 'then', {
  configurable: true,
  get() { if (armed) log('get then on', Object.keys(this).sort()); return undefined; },
});
const ws = new WritableStream({ write() {}, close() {} });
const w = ws.getWriter();
const ps = [w.write({ k: 1 }), w.write(2), w.close(), w.closed];
const ws2 = new WritableStream();
ps.push(ws2.abort({ reason: 1 }));
Promise.all(ps).then(() => { armed = false; delete Object.prototype.then; log('all settled'); });
