// ReadableStream: pull() enqueues into a pending read, then errors: the read is fulfilled
// (enqueue happened first) and the next read rejects.
const rs = new ReadableStream(source('src', {
  pull(c) { c.enqueue('x'); c.error(new Error('after')); },
}), { highWaterMark: 0 });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('closed', r.closed);
