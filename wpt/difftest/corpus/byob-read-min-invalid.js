// BYOB reader: invalid min values reject with TypeError/RangeError; zero-length views reject.
const rs = new ReadableStream({ type: 'bytes' });
const r = rs.getReader({ mode: 'byob' });
watch('min 0', r.read(new Uint8Array(4), { min: 0 }));
watch('min too big', r.read(new Uint8Array(4), { min: 5 }));
watch('min too big u16', r.read(new Uint16Array(2), { min: 3 }));
watch('zero length view', r.read(new Uint8Array(0)));
watch('not a view', r.read({}));
const dv = new Uint8Array(2);
structuredClone(dv.buffer, { transfer: [dv.buffer] });
watch('detached view', r.read(dv));
watch('closed', r.closed);
r.releaseLock();
