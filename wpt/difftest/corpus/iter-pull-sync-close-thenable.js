// pull() closes the stream synchronously inside the read next() starts (close steps: reader
// release, nextPromise resolved with end of iteration) and returns a thenable; then pull()
// errors instead, for a second iterator.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
const rs1 = new ReadableStream(source('rs1', {
  pull(c) { c.close(); return thenable('rs1.pull.then', undefined); },
}), { highWaterMark: 0 });
(async () => {
  await delay(0);
  const it1 = rs1.values();
  watch('it1 next0', it1.next());
  watch('it1 next1', it1.next());
  const rs2 = new ReadableStream(source('rs2', {
    type: 'bytes',
    pull(c) { c.error(new Error('boom')); return thenable('rs2.pull.then', undefined); },
  }));
  const it2 = rs2.values();
  watch('it2 next0', it2.next());
  watch('it2 next1', it2.next());
  log('sync end');
})();
