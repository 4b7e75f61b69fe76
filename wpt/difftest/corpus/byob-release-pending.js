// BYOB: releaseLock with a pending BYOB read rejects it; the byobRequest stays usable and a
// new default reader then receives the bytes responded.
let req;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { req = c.byobRequest; log('pull', req && req.view); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4)));
(async () => {
  await delay(1);
  r.releaseLock();
  watch('closed', r.closed);
  const r2 = rs.getReader();
  watch('r2.read', r2.read());
  req.view[0] = 99;
  req.respond(1);
})();
