// ReadableStream: pull() releases the reader whose read triggered it; the read rejects; the
// chunk enqueued afterwards stays queued for the next reader.
let r;
const rs = new ReadableStream(source('src', {
  pull(c) {
    r.releaseLock();
    c.enqueue('kept');
    log('desiredSize', c.desiredSize);
  },
}), { highWaterMark: 0 });
r = rs.getReader();
watch('read', r.read());
(async () => {
  await delay(1);
  watch('read2', rs.getReader().read());
})();
