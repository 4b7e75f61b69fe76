// Fast-path probe: a synchronous sink that throws on the third write, with writes issued in one
// turn: positions of fulfilments, the failing write, and rejections of the rest.
let n = 0;
const ws = new WritableStream(source('sink', { write(c) { n++; if (n === 3) throw new Error('third'); } }), { highWaterMark: 10 });
const w = ws.getWriter();
for (let i = 0; i < 5; i++) watch('w' + i, w.write(i));
watch('close', w.close());
watch('ready', w.ready);
