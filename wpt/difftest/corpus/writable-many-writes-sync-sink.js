// WritableStream: ten writes to a synchronous sink; each write promise and ready settle in
// order; the queue never exceeds hwm 3.
const ws = new WritableStream(source('sink', { write(c) {} }), { highWaterMark: 3 });
const w = ws.getWriter();
for (let i = 0; i < 6; i++) {
  watch('w' + i, w.write(i));
  log('desiredSize', w.desiredSize);
}
watch('close', w.close());
watch('ready', w.ready);
