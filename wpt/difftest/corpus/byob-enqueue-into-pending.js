// BYOB: controller.enqueue() while a BYOB read is pending copies into the pending view;
// bytes that do not fit stay queued for the next read.
let ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { log('pull', c.byobRequest && c.byobRequest.view); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read1', r.read(new Uint8Array(3)));
(async () => {
  await delay(1);
  ctrl.enqueue(new Uint8Array([1, 2, 3, 4, 5]));
  log('byobRequest after enqueue', ctrl.byobRequest);
  watch('read2', r.read(new Uint8Array(4)));
  watch('read3', r.read(new Uint16Array(1)));
  ctrl.close();
})();
