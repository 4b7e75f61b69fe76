// ReadableStream.from(array) with Object.prototype.then a non-callable data property (a
// number, then null, then an object): the iterator results are not thenables; a getter that
// returns a non-callable value, installed later, is still run on every lookup.
const r = ReadableStream.from([1, 2, 3, 4, 5, 6]).getReader();
(async () => {
  await null; await null; await null; // started
  hook(Object.prototype, 'then', { value: 42, writable: true });
  watch('read1', r.read());
  watch('read2', r.read());
  await delay(0);
  Object.prototype.then = null;
  watch('read3', r.read());
  await delay(0);
  Object.prototype.then = { not: 'callable' };
  watch('read4', r.read());
  await delay(0);
  hook(Object.prototype, 'then', { get() { log('get then', Object.keys(this).sort()); return 7; } });
  watch('read5', r.read());
  watch('read6', r.read());
  await delay(0);
  delete Object.prototype.then;
  watch('read7', r.read());
})();
