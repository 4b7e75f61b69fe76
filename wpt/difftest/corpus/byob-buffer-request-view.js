// BYOB: read(view) detaches the view's buffer at once; the request's view is over a new
// buffer (same bytes, %ArrayBuffer.prototype%), the same object while the request lives;
// respond detaches it and the result is over yet another buffer. (With the fast paths on,
// boa_streams makes the request's buffer only when the view is asked for.)
let req, reqBuf;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    req = c.byobRequest;
    const v = req.view;
    reqBuf = v.buffer;
    log('view', v.byteOffset, v.byteLength, reqBuf.byteLength, v[0], v[1],
      Object.getPrototypeOf(reqBuf) === ArrayBuffer.prototype);
    log('same', c.byobRequest === req, c.byobRequest.view === v, req.view.buffer === reqBuf);
    v[0] = 7;
    req.respond(2);
    log('responded', reqBuf.byteLength, req.view, c.byobRequest);
  },
}));
const reader = rs.getReader({ mode: 'byob' });
const buf = new ArrayBuffer(8);
new Uint8Array(buf).set([1, 2, 3, 4, 5, 6, 7, 8]);
watch('read', reader.read(new Uint8Array(buf, 2, 4))).then(({ value }) => {
  log('value', value.byteOffset, value.byteLength, value.buffer.byteLength,
    Array.from(new Uint8Array(value.buffer)).join('.'), value.buffer === reqBuf,
    value.buffer === buf, Object.getPrototypeOf(value.buffer) === ArrayBuffer.prototype);
  // A second read with no pull between: the request for it is a new object.
  const second = reader.read(new Uint16Array(2));
  log('old request', req.view, reqBuf.byteLength);
  return watch('read2', second);
});
log('after read', buf.byteLength);
