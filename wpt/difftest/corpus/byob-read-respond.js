// BYOB reader: read(view) hands the buffer to pull via byobRequest; respond(n) fills the read
// with a view over the transferred buffer; the caller's buffer detaches.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    const v = c.byobRequest.view;
    log('request view', v);
    v[0] = 7; v[1] = 8; v[2] = 9;
    c.byobRequest.respond(3);
  },
}));
const r = rs.getReader({ mode: 'byob' });
const mine = new Uint8Array(5);
watch('read', r.read(mine)).then(() => {
  log('mine after', mine);
  r.releaseLock();
  watch('cancel', rs.cancel());
});
log('mine during', mine);
