// Async iteration: an exception thrown in the loop body calls return() which cancels the
// stream with undefined.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); },
  cancel(reason) { log('cancel', reason); return delay(1); },
}));
(async () => {
  try {
    for await (const chunk of rs) {
      log('chunk', chunk);
      throw new Error('body');
    }
  } catch (e) {
    log('caught', e);
  }
  log('locked', rs.locked);
})();
