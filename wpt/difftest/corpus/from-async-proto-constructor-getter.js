// ReadableStream.from(async generator): a Promise.prototype.constructor getter installed
// mid-stream, logging only for the promises next() returned (the thenable job's
// SpeciesConstructor reads it on them), removed again later.
const fromNext = new WeakSet();
async function* gen() {
  for (let i = 0; i < 5; i++) { log('yield', i); yield i; }
}
const g = gen();
const origNext = g.next;
const it = {
  [Symbol.asyncIterator]() { return this; },
  next() { const p = origNext.call(g); fromNext.add(p); return p; },
};
const orig = Object.getOwnPropertyDescriptor(Promise.prototype, 'constructor');
const r = ReadableStream.from(it).getReader();
(async () => {
  watch('read1', r.read());
  await null;
  Object.defineProperty(Promise.prototype, 'constructor', {
    configurable: true,
    get() { if (fromNext.has(this)) log('get constructor'); return Promise; },
  });
  watch('read2', r.read());
  await watch('read3', r.read());
  Object.defineProperty(Promise.prototype, 'constructor', orig);
  log('restored');
  watch('read4', r.read());
  watch('read5', r.read());
  watch('read6', r.read());
})();
