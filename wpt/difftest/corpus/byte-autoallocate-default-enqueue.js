// ReadableByteStream with autoAllocateChunkSize: pull uses enqueue() instead of respond; the
// auto-allocated request is discarded and the read gets the enqueued chunk.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  autoAllocateChunkSize: 4,
  pull(c) {
    n++;
    log('request', c.byobRequest && c.byobRequest.view);
    c.enqueue(new Uint8Array([n]));
    log('request after enqueue', c.byobRequest);
    if (n === 2) c.close();
  },
}));
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
