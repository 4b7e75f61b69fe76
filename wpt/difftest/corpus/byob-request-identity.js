// ReadableByteStreamController.byobRequest: the same object is returned until respond;
// after respond, the old request's view is null and respond throws.
let saved;
const rs = new ReadableStream({
  type: 'bytes',
  pull(c) {
    const a = c.byobRequest;
    log('same', a === c.byobRequest);
    saved = a;
    a.view[0] = 1;
    a.respond(1);
    log('after respond', a.view, c.byobRequest);
    attempt('respond again', () => a.respond(1));
    c.close();
  },
});
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(2)));
