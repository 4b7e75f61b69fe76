// BYOB: close() while a Uint16Array read has one odd byte filled throws TypeError and errors
// the stream.
let ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint16Array(2)));
watch('closed', r.closed);
(async () => {
  await delay(1);
  ctrl.enqueue(new Uint8Array([1]));
  attempt('close', () => ctrl.close());
})();
