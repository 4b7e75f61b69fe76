// BYOB reader released with a partially filled pull-into (min not reached); then enqueue():
// the detached descriptor's bytes are queued first, then the new chunk; a default reader gets
// them in order.
let ctrl, req;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { if (!req) { req = c.byobRequest; req.view[0] = 1; req.respond(1); } },
}));
const r = rs.getReader({ mode: 'byob' });
watch('byob read', r.read(new Uint8Array(4), { min: 3 }));
(async () => {
  await delay(1);
  r.releaseLock();
  ctrl.enqueue(new Uint8Array([2, 3]));
  log('desiredSize', ctrl.desiredSize);
  const r2 = rs.getReader();
  watch('d1', r2.read());
  watch('d2', r2.read());
})();
