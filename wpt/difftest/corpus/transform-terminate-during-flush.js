// TransformStream: terminate() and enqueue inside flush: close resolves; the chunk enqueued
// before terminate is readable.
const ts = new TransformStream(source('tr', {
  flush(c) { c.enqueue('x'); c.terminate(); attempt('enqueue after', () => c.enqueue('y')); },
}));
const r = ts.readable.getReader();
watch('close', ts.writable.getWriter().close());
watch('r1', r.read());
watch('r2', r.read());
