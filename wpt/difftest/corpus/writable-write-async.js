// WritableStream: write() returns promises resolved by timers; backpressure: ready is pending
// while desiredSize <= 0 and resolves when the queue drains.
const ws = new WritableStream(source('sink', {
  write(chunk) { return delay(1).then(() => log('written', chunk)); },
  close() { return delay(1); },
}), { highWaterMark: 2 });
const w = ws.getWriter();
watch('ready0', w.ready);
watch('w1', w.write(1));
watch('w2', w.write(2));
log('desiredSize', w.desiredSize);
watch('ready1', w.ready);
watch('w3', w.write(3));
log('desiredSize', w.desiredSize);
watch('close', w.close());
watch('closed', w.closed);
