// BYOB: the source responds 1 byte at a time to a Uint16Array(2) read (min default = 1
// element): the read completes after 2 bytes; the view offsets advance.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const v = c.byobRequest.view;
    log('pull', n, v.byteOffset, v.byteLength);
    v[0] = n;
    c.byobRequest.respond(1);
    if (n === 4) c.close();
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read1', r.read(new Uint16Array(2)));
watch('read2', r.read(new Uint8Array(2)));
