// ReadableStream: pull() cancels its own stream through the reader; the source's cancel runs
// inside pull; the pending read resolves done.
let r;
const rs = new ReadableStream(source('src', {
  pull(c) {
    watch('inner cancel', r.cancel('self'));
    attempt('enqueue after cancel', () => c.enqueue(1));
  },
  cancel(reason) { log('cancel', reason); },
}), { highWaterMark: 0 });
r = rs.getReader();
watch('read', r.read());
watch('closed', r.closed);
