// tee(): cancelling one branch does not cancel the source; the other branch keeps reading.
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  cancel(r) { log('source cancel must not run', r); },
}));
const [a, b] = rs.tee();
watch('a.cancel', a.cancel('ra'));
const rb = b.getReader();
watch('b1', rb.read());
ctrl.enqueue('x');
ctrl.close();
watch('b2', rb.read());
watch('b.closed', rb.closed);
