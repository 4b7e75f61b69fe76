// BYOB read with min: the stream closes before min is reached: the read resolves done with
// the partially filled view.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4), { min: 4 }));
(async () => {
  await delay(1);
  ctrl.enqueue(new Uint8Array([9, 9]));
  log('byobRequest view', ctrl.byobRequest && ctrl.byobRequest.view);
  ctrl.close();
  log('byobRequest after close', ctrl.byobRequest && ctrl.byobRequest.view);
  ctrl.byobRequest.respond(0);
})();
