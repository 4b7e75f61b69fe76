// WritableStream with highWaterMark Infinity: never backpressure; desiredSize stays Infinity.
const ws = new WritableStream(source('sink', { write(c) { return delay(1); } }), { highWaterMark: Infinity });
const w = ws.getWriter();
for (let i = 0; i < 3; i++) {
  watch('w' + i, w.write(i));
  log('desiredSize', w.desiredSize);
}
watch('ready', w.ready);
watch('close', w.close());
