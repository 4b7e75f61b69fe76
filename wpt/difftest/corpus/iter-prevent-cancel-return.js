// Async iterator with preventCancel: return() releases the lock without cancel; the stream
// keeps its queued chunk for a new reader.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); },
  cancel() { log('cancel must not run'); },
}));
const it = rs.values({ preventCancel: true });
(async () => {
  log('next', await it.next());
  log('return', await it.return('v'));
  log('locked', rs.locked);
  log('read', await rs.getReader().read());
})();
