// BYOB: two BYOB reads queued; one enqueue fills the first and part of the second; the
// second completes on the next enqueue.
let ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { log('pull', c.byobRequest && c.byobRequest.view); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read1', r.read(new Uint8Array(2)));
watch('read2', r.read(new Uint8Array(3)));
(async () => {
  await delay(1);
  ctrl.enqueue(new Uint8Array([1, 2, 3]));
  log('byobRequest', ctrl.byobRequest && ctrl.byobRequest.view);
  await delay(1);
  ctrl.enqueue(new Uint8Array([4, 5]));
  ctrl.close();
})();
