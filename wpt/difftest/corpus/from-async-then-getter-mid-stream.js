// ReadableStream.from(async generator): an Object.prototype.then getter installed between
// reads and inside a pull (nextPromise's resolve function reads it on the iterator result,
// the get-the-next-value steps' promise on the value), logging the keys of its receiver.
async function* gen() {
  for (let i = 0; i < 4; i++) yield { n: i };
}
const r = ReadableStream.from(gen()).getReader();
const install = (label) => hook(Object.prototype, 'then', {
  get() { log('get then', label, Object.keys(this).sort()); return undefined; },
});
(async () => {
  watch('read1', r.read());
  queueMicrotask(() => { log('m1'); });
  queueMicrotask(() => { log('m2'); install('from m2'); });
  await null; await null; await null;
  watch('read2', r.read());
  Promise.resolve().then(() => Promise.resolve()).then(() => { log('m3'); delete Object.prototype.then; });
  watch('read3', r.read());
  await delay(0);
  install('timer');
  watch('read4', r.read());
  watch('read5', r.read());
})();
