// tee() of a byte stream: the source errors while branch A's BYOB read is pending and branch B
// has a chunk queued; both branches error, B's queued chunk is dropped.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const [a, b] = rs.tee();
const ra = a.getReader({ mode: 'byob' });
const rb = b.getReader();
watch('a1', ra.read(new Uint8Array(4)));
(async () => {
  await delay(1);
  ctrl.enqueue(new Uint8Array([1, 2]));
  await delay(1);
  ctrl.error(new Error('src'));
  watch('b1', rb.read());
  watch('a.closed', ra.closed);
})();
