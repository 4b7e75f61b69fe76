// ReadableStream: start enqueues, then errors asynchronously before anyone reads; the queued
// chunk is discarded.
const rs = new ReadableStream(source('src', {
  start(c) {
    c.enqueue('lost');
    return delay(1).then(() => c.error(new Error('late')));
  },
}));
(async () => {
  await delay(2);
  const r = rs.getReader();
  watch('read', r.read());
  watch('closed', r.closed);
})();
