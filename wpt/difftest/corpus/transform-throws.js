// TransformStream: transform throws: the write rejects, both sides error; flush not called.
const ts = new TransformStream(source('tr', {
  transform(chunk) { throw new Error('tx'); },
  flush() { log('flush must not run'); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('r.closed', r.closed);
watch('w.closed', w.closed);
watch('r1', r.read());
watch('w1', w.write('a'));
watch('close', w.close());
