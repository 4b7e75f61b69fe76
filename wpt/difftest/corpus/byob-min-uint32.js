// BYOB read with a Uint32Array and min 2: respond in odd-sized pieces; the read fulfils once
// 8 bytes are filled; leftover bytes stay queued.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const v = c.byobRequest.view;
    log('pull view', v.byteOffset, v.byteLength);
    const u8 = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    const k = Math.min(3, u8.length);
    for (let i = 0; i < k; i++) u8[i] = n;
    c.byobRequest.respond(k);
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint32Array(3), { min: 2 })).then(() => {
  watch('cancel', r.cancel());
});
