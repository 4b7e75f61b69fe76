// tee() of a byte stream: cancel branch B; branch A keeps reading with BYOB; the source is
// never cancelled (it closes normally) and B's cancel resolves at the close.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    if (c.byobRequest) { c.byobRequest.view[0] = n; c.byobRequest.respond(1); } else c.enqueue(new Uint8Array([n]));
    if (n === 2) c.close();
  },
  cancel() { log('src cancel must not run'); },
}));
const [a, b] = rs.tee();
watch('b.cancel', b.cancel('B'));
const ra = a.getReader({ mode: 'byob' });
watch('a1', ra.read(new Uint8Array(3)));
watch('a2', ra.read(new Uint8Array(3)));
watch('a3', ra.read(new Uint8Array(3)));
