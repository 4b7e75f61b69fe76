// TransformStream: flush() rejects: close() rejects and the readable side errors.
const ts = new TransformStream(source('tr', {
  flush(c) { c.enqueue('last'); return Promise.reject(new Error('flush')); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('close', w.close());
watch('r1', r.read());
watch('r2', r.read());
watch('r.closed', r.closed);
