// WritableStreamDefaultWriter: releaseLock() with a write in flight; closed/ready of the old
// writer reject with TypeError; a new writer continues.
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); return delay(1); },
}));
const w1 = ws.getWriter();
watch('w1.closed', w1.closed);
watch('w1.ready', w1.ready);
watch('w1.write', w1.write('a'));
w1.releaseLock();
watch('w1.closed after', w1.closed);
watch('w1.ready after', w1.ready);
attempt('w1.desiredSize', () => w1.desiredSize);
watch('w1.write after', w1.write('x'));
const w2 = ws.getWriter();
watch('w2.write', w2.write('b'));
watch('w2.close', w2.close());
