// ReadableByteStream: two pending default reads, one enqueue of 4 bytes fulfils only the
// first; a later enqueue fulfils the second.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
(async () => {
  await delay(1);
  ctrl.enqueue(new Uint8Array([1, 2, 3, 4]));
  log('desiredSize', ctrl.desiredSize);
  ctrl.enqueue(new Uint8Array([5]));
  log('desiredSize', ctrl.desiredSize);
  watch('read3', r.read());
})();
