// TransformStream: reads pending on the readable side when close() is called: flush enqueues
// one chunk (fulfils the first read), then the stream closes (second read done).
const ts = new TransformStream(source('tr', { flush(c) { c.enqueue('F'); } }));
const r = ts.readable.getReader();
watch('r1', r.read());
watch('r2', r.read());
const w = ts.writable.getWriter();
watch('close', w.close());
watch('r.closed', r.closed);
