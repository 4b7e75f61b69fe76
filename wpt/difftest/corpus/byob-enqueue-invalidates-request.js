// BYOB: controller.enqueue() while a byobRequest is outstanding invalidates it: the old
// request's view becomes null and its respond throws; the read is filled from the chunk.
let ctrl, req;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { req = c.byobRequest; },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4)));
(async () => {
  await delay(1);
  log('view before', req.view);
  ctrl.enqueue(new Uint8Array([7, 7]));
  log('view after', req.view);
  attempt('respond old', () => req.respond(1));
  log('new request', ctrl.byobRequest);
})();
