// pipeThrough returns the pair's readable (read from the traced pair once, after writable);
// the returned stream is the same object.
const ts = new TransformStream();
const pair = traced('pair', { writable: ts.writable, readable: ts.readable });
const rs = new ReadableStream({ start(c) { c.close(); } });
const out = rs.pipeThrough(pair);
log('same', out === ts.readable);
watch('read', out.getReader().read());
