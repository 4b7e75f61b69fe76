// BYOB: controller.error() while a BYOB read is pending with partial bytes: the read rejects;
// the byobRequest is invalidated.
let ctrl, req;
const rs = new ReadableStream({
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { req = c.byobRequest; c.byobRequest.view[0] = 5; c.byobRequest.respond(1); },
});
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(3), { min: 3 }));
watch('closed', r.closed);
(async () => {
  await delay(1);
  ctrl.error(new Error('E'));
  log('byobRequest', ctrl.byobRequest);
})();
