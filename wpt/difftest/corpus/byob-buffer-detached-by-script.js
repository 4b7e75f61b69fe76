// BYOB: the source detaches the request view's buffer (ArrayBuffer.prototype.transfer):
// respond and enqueue throw TypeError (the pending buffer is detached); respondWithNewView
// with a buffer of the same length still completes the read.
let step = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    step++;
    const v = c.byobRequest.view;
    if (step !== 1) return;
    const moved = v.buffer.transfer();
    log('moved', moved.byteLength, v.byteLength);
    attempt('respond', () => c.byobRequest.respond(1));
    attempt('enqueue', () => c.enqueue(new Uint8Array([1])));
    const nv = new Uint8Array(new ArrayBuffer(4), 0, 3);
    nv.set([4, 5, 6]);
    attempt('respondWithNewView', () => c.byobRequest.respondWithNewView(nv));
    log('new view buffer', nv.buffer.byteLength, c.byobRequest);
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4))).then(({ value }) => {
  log('value', Array.from(value).join('.'), value.buffer.byteLength);
});
