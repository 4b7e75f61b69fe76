// BYOB: bytes queued by start are copied into a BYOB read synchronously; Uint16/Uint32/
// DataView reads consume whole elements and leave remainders queued.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { c.enqueue(new Uint8Array([1, 2, 3, 4, 5, 6, 7])); c.close(); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('u16', r.read(new Uint16Array(2)));
watch('dv', r.read(new DataView(new ArrayBuffer(2))));
watch('u8', r.read(new Uint8Array(4)));
watch('done', r.read(new Uint8Array(1)));
