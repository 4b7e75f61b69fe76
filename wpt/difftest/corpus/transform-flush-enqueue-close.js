// TransformStream: flush calls terminate() after enqueueing; close resolves; reads get the
// chunk then done.
const ts = new TransformStream(source('tr', {
  flush(c) { c.enqueue('f'); c.terminate(); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('close', w.close());
watch('r1', r.read());
watch('r2', r.read());
watch('w.closed', w.closed);
