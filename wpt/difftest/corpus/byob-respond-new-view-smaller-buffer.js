// BYOB: respondWithNewView with a view whose buffer byteLength differs throws RangeError;
// zero-length view on a readable stream throws TypeError.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    const req = c.byobRequest;
    const v = req.view;
    attempt('zero view', () => req.respondWithNewView(new Uint8Array(v.buffer, v.byteOffset, 0)));
    attempt('too long', () => req.respondWithNewView(new Uint8Array(v.buffer, v.byteOffset, v.byteLength + 1)));
    attempt('ok', () => req.respondWithNewView(new Uint8Array(v.buffer, v.byteOffset, 1)));
  },
}));
watch('read', rs.getReader({ mode: 'byob' }).read(new Uint8Array(new ArrayBuffer(4), 0, 2)));
