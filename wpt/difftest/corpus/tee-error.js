// tee(): the source errors after one chunk; both branches error; a pending cancel on one
// branch resolves.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const [a, b] = rs.tee();
const ra = a.getReader();
const rb = b.getReader();
watch('a.closed', ra.closed);
watch('b.closed', rb.closed);
watch('a1', ra.read());
ctrl.enqueue(1);
(async () => {
  await delay(1);
  watch('a2', ra.read());
  ctrl.error(new Error('src'));
  watch('b1', rb.read());
  watch('b cancel', rb.cancel());
})();
