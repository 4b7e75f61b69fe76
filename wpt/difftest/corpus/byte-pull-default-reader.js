// ReadableByteStream: pull-driven byte stream with a default reader and no
// autoAllocateChunkSize: byobRequest is null in pull, enqueue fulfils the read.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    log('byobRequest', c.byobRequest, 'desiredSize', c.desiredSize);
    c.enqueue(new Uint8Array([n, n]));
    if (n === 2) c.close();
  },
}));
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
watch('closed', r.closed);
