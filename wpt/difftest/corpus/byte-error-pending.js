// ReadableByteStream: controller.error() with pending default reads rejects them; enqueue
// after error throws.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('closed', r.closed);
(async () => {
  await delay(1);
  ctrl.error(new Error('err'));
  attempt('enqueue', () => ctrl.enqueue(new Uint8Array(1)));
  log('desiredSize', ctrl.desiredSize);
})();
