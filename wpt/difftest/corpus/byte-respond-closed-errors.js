// ReadableByteStream: close() with a pending BYOB read then respond(1) throws TypeError and
// respondWithNewView with a non-zero view throws; respond(0) completes the read.
let ctrl;
const rs = new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(3)));
(async () => {
  await delay(1);
  const req = ctrl.byobRequest;
  ctrl.close();
  attempt('respond 1', () => req.respond(1));
  const v = req.view;
  attempt('new view nonzero', () => req.respondWithNewView(new Uint8Array(v.buffer, v.byteOffset, 1)));
  attempt('new view zero', () => req.respondWithNewView(new Uint8Array(v.buffer, v.byteOffset, 0)));
  watch('closed', r.closed);
})();
