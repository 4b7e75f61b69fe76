// ReadableStream.from(async generator): Promise.prototype.then replaced mid-stream by a
// logging wrapper (nextPromise's resolve function finds it on the promise next() returned
// and calls it in the thenable job), then restored.
async function* gen() {
  for (let i = 0; i < 5; i++) { log('yield', i); yield i; }
}
const r = ReadableStream.from(gen()).getReader();
const then = Promise.prototype.then;
(async () => {
  watch('read1', r.read());
  await null;
  Promise.prototype.then = function (f, g) {
    log('then called', typeof f, typeof g);
    return then.call(this, f, g);
  };
  watch('read2', r.read());
  watch('read3', r.read());
  await delay(0);
  Promise.prototype.then = then;
  log('restored');
  watch('read4', r.read());
  watch('read5', r.read());
  watch('read6', r.read());
})();
