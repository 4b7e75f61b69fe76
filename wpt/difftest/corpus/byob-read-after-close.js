// BYOB: read on a closed byte stream returns done with an empty view over the transferred
// buffer; read on an errored stream rejects.
const rs = new ReadableStream({ type: 'bytes', start(c) { c.close(); } });
const r = rs.getReader({ mode: 'byob' });
watch('read closed', r.read(new Uint8Array(4)));
watch('closed', r.closed);
const rs2 = new ReadableStream({ type: 'bytes', start(c) { c.error(new Error('bad')); } });
const r2 = rs2.getReader({ mode: 'byob' });
watch('read errored', r2.read(new Uint8Array(4)));
watch('closed2', r2.closed);
