// ReadableByteStream: an async pull responds after a timer; a second BYOB read waits for the
// first pull promise before pulling again.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const req = c.byobRequest;
    return delay(1).then(() => {
      req.view[0] = n;
      req.respond(1);
      if (n === 2) c.close();
    });
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read1', r.read(new Uint8Array(2)));
watch('read2', r.read(new Uint8Array(2)));
watch('read3', r.read(new Uint8Array(2)));
