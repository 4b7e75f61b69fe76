// BYOB read into a Uint16Array with min 2 elements: the source responds 3 bytes then 2 bytes;
// the read completes with 2 elements and the odd trailing byte is re-queued for the next read.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const v = c.byobRequest.view;
    const u8 = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    log('pull', n, v.byteOffset, v.byteLength);
    const k = n === 1 ? 3 : 2;
    for (let i = 0; i < k; i++) u8[i] = n * 10 + i;
    c.byobRequest.respond(k);
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint16Array(3), { min: 2 })).then(() => {
  watch('next', r.read(new Uint8Array(2)));
});
