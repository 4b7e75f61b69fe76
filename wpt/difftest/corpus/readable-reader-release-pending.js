// ReadableStreamDefaultReader: releaseLock() with pending reads rejects them with TypeError;
// closed rejects; a new reader can read the chunk enqueued afterwards.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const r1 = rs.getReader();
watch('r1.closed', r1.closed);
watch('r1.read1', r1.read());
watch('r1.read2', r1.read());
r1.releaseLock();
log('locked', rs.locked);
watch('r1.read after release', r1.read());
const r2 = rs.getReader();
watch('r2.closed', r2.closed);
watch('r2.read', r2.read());
ctrl.enqueue('late');
ctrl.close();
