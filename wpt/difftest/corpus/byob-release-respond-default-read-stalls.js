// Spec quirk pinned: BYOB reader released with a pending pull-into (reader type becomes
// "none"); a default reader's read is pending; respond(1) moves the bytes into the queue via
// EnqueueDetachedPullIntoToQueue without serving the pending read request; a later enqueue()
// serves it (first the queued byte).
let req, ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { if (!req) req = c.byobRequest; log('pull', c.byobRequest && c.byobRequest.view); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('byob read', r.read(new Uint8Array(2)));
(async () => {
  await delay(1);
  r.releaseLock();
  const r2 = rs.getReader();
  watch('default read 1', r2.read());
  req.view[0] = 1;
  req.respond(1);
  log('desiredSize after respond', ctrl.desiredSize);
  await delay(1);
  log('still pending; enqueue');
  ctrl.enqueue(new Uint8Array([2]));
  watch('default read 2', r2.read());
})();
