// BYOB: respondWithNewView() with a view over the same (transferred) buffer; the reader
// gets that view; errors for a view of the wrong buffer or wrong offset.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    const req = c.byobRequest;
    const v = req.view;
    attempt('wrong buffer', () => req.respondWithNewView(new Uint8Array(2)));
    attempt('wrong offset', () => req.respondWithNewView(new Uint8Array(v.buffer, 1, 1)));
    const nv = new Uint8Array(v.buffer, v.byteOffset, 2);
    nv[0] = 42; nv[1] = 43;
    req.respondWithNewView(nv);
    log('after respond', c.byobRequest);
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(new ArrayBuffer(8), 2, 4)));
