// tee() of a byte stream: the source errors while both branches have pending reads.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const [a, b] = rs.tee();
const ra = a.getReader({ mode: 'byob' });
const rb = b.getReader();
watch('a1', ra.read(new Uint8Array(2)));
watch('b1', rb.read());
watch('a.closed', ra.closed);
watch('b.closed', rb.closed);
(async () => {
  await delay(1);
  ctrl.error(new TypeError('t'));
})();
