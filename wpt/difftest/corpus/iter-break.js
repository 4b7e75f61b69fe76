// Async iteration: break out of for await cancels the stream (return() -> cancel) and
// releases the lock.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); },
  cancel(reason) { log('cancel reason', reason); },
}));
(async () => {
  for await (const chunk of rs) {
    log('chunk', chunk);
    if (chunk === 2) break;
  }
  log('after loop, locked', rs.locked);
})();
