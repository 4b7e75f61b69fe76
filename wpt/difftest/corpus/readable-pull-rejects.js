// ReadableStream: pull() returns a rejected promise after enqueueing; the chunk already
// queued is lost when the stream errors (queue reset).
const rs = new ReadableStream(source('src', {
  pull(c) {
    c.enqueue('x');
    log('desiredSize', c.desiredSize);
    return Promise.reject(new Error('pr'));
  },
}), { highWaterMark: 2 });
(async () => {
  await delay(1);
  const r = rs.getReader();
  watch('closed', r.closed);
  watch('read1', r.read());
})();
