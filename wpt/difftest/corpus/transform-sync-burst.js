// Fast-path probe: synchronous transform, writes issued in one turn without awaiting, reads
// issued in one turn; readable hwm 2.
const ts = new TransformStream(source('tr', { transform(c, ctl) { ctl.enqueue(c); } }), undefined, { highWaterMark: 2 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
for (let i = 0; i < 4; i++) watch('w' + i, w.write(i));
watch('close', w.close());
for (let i = 0; i < 5; i++) watch('r' + i, r.read());
