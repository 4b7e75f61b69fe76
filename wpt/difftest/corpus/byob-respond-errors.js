// BYOB: respond() with too many bytes throws RangeError; respond(0) on a readable stream
// throws TypeError; after close, respond(0) is allowed and the read fulfils with done.
let req;
let ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) { req = c.byobRequest; log('pull view', req.view); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4)));
(async () => {
  await delay(1);
  attempt('respond too many', () => req.respond(5));
  attempt('respond 0 readable', () => req.respond(0));
  ctrl.close();
  attempt('respond 1 closed', () => req.respond(1));
  attempt('respond 0 closed', () => req.respond(0));
  log('view after', req.view);
  watch('closed', r.closed);
})();
