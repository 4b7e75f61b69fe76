// ReadableByteStream with autoAllocateChunkSize: a default reader's read creates a
// byobRequest of that size; respond(n) fulfils the read with an n-byte view.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  autoAllocateChunkSize: 8,
  pull(c) {
    n++;
    const req = c.byobRequest;
    log('view', req.view);
    req.view[0] = n;
    req.view[1] = n * 10;
    req.respond(2);
    log('byobRequest after respond', c.byobRequest);
    if (n === 2) c.close();
  },
}));
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
