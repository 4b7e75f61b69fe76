// ReadableStream.from(sync iterator): next() throws on its third call while an
// Object.prototype.then getter is installed (the rejected wrapper promise is a JS promise from
// the thenable job on) and on a second stream without it; a chunk that is itself a thenable.
function make(tag) {
  let i = 0;
  return {
    [Symbol.iterator]() { return this; },
    next() {
      const n = i++;
      log(tag, 'next', n);
      if (n === 2) throw new Error(tag + ' next ' + n);
      if (n === 1) return { value: { then(res) { log(tag, 'chunk then'); res('from thenable'); } }, done: false };
      return { value: tag + n, done: false };
    },
  };
}
const r1 = ReadableStream.from(make('A')).getReader();
const r2 = ReadableStream.from(make('B')).getReader();
(async () => {
  await null; await null; await null; // started
  watch('A read1', r1.read());
  watch('B read1', r2.read());
  watch('A read2', r1.read());
  watch('B read2', r2.read());
  await delay(0);
  hook(Object.prototype, 'then', { get() { log('get then', Object.keys(this).sort()); return undefined; } });
  watch('A read3', r1.read());
  watch('A closed', r1.closed);
  await delay(0);
  delete Object.prototype.then;
  watch('B read3', r2.read());
  watch('B closed', r2.closed);
})();
