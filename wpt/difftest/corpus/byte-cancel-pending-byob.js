// ReadableByteStream: cancel() with a pending BYOB read resolves it with done and an empty
// view; the source's cancel is called; byobRequest is invalidated.
let req;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { req = c.byobRequest; },
  cancel(reason) { log('reason', reason); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4)));
(async () => {
  await delay(1);
  watch('cancel', r.cancel('stop'));
  log('view after cancel', req.view);
  attempt('respond after cancel', () => req.respond(1));
})();
