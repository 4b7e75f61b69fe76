// BYOB reads with several typed array kinds (Int16, Float64, BigUint64 not used, DataView)
// from one queued chunk; element alignment of the remainder.
const bytes = new Uint8Array(20);
for (let i = 0; i < 20; i++) bytes[i] = i;
const rs = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(bytes); c.close(); } });
const r = rs.getReader({ mode: 'byob' });
watch('i16', r.read(new Int16Array(1)));
watch('f64', r.read(new Float64Array(1)));
watch('dv', r.read(new DataView(new ArrayBuffer(3), 1)));
watch('u32', r.read(new Uint32Array(2)));
watch('u8', r.read(new Uint8Array(10)));
