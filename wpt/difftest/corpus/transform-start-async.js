// TransformStream: async start(); writes wait for start; transform runs after.
const ts = new TransformStream(source('tr', {
  start(c) { return delay(1).then(() => { log('start done'); c.enqueue('from start'); }); },
  transform(chunk, c) { c.enqueue(chunk); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w1', w.write('a'));
watch('r1', r.read());
watch('r2', r.read());
