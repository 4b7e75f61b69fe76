// BYOB: reads filled from the queue (enqueue while a read is pending and its request view was
// never made; a second read of whole elements with a remainder), the request after that, and
// read(view) on the closed stream (an empty view over the transferred buffer).
let ctrl;
const rs = new ReadableStream(source('src', { type: 'bytes', start(c) { ctrl = c; } }));
const r = rs.getReader({ mode: 'byob' });
(async () => {
  const pending = r.read(new Uint8Array(3));
  ctrl.enqueue(new Uint8Array([9, 8, 7, 6, 5]));
  const a = await watch('read1', pending);
  log('read1', Array.from(a.value).join('.'), a.value.buffer.byteLength, ctrl.byobRequest);
  const b = await watch('read2', r.read(new Uint16Array(2)));
  log('read2', b.value.constructor.name, b.value.length,
    Array.from(new Uint8Array(b.value.buffer)).join('.'));
  ctrl.close();
  const closeBuf = new ArrayBuffer(6);
  const c = await watch('read3', r.read(new DataView(closeBuf, 1, 4)));
  log('read3', c.done, c.value.constructor.name, c.value.byteOffset, c.value.byteLength,
    c.value.buffer.byteLength, closeBuf.byteLength);
})();
