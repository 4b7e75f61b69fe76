// ReadableStream.from(sync generator): Object.prototype.then getters installed in microtasks
// between the steps of one pull (valueWrapper reaction, nextPromise's thenable job, the
// reaction to the wrapper's promise), each logging the tick of every lookup.
function* gen() { yield 1; yield 2; yield 3; }
const rs = ReadableStream.from(gen());
const r = rs.getReader();
(async () => {
await null; await null; await null; // started: read() pulls synchronously
watch('read1', r.read());
let n = 0;
function install(label) {
  hook(Object.prototype, 'then', { get() { log('get then', label, Object.keys(this).sort()); return undefined; } });
}
queueMicrotask(() => { log('m1'); });
queueMicrotask(() => { log('m2'); install('from m2'); });
watch('read2', r.read());
Promise.resolve().then(() => Promise.resolve()).then(() => { log('m3'); delete Object.prototype.then; });
watch('read3', r.read());
delay(0).then(() => { install('timer'); watch('read4', r.read()); });
})();
