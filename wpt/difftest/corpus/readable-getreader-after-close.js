// ReadableStream: getReader() on a closed stream returns a reader whose closed is resolved and
// read() is done; on an errored stream closed rejects; releaseLock on them.
const closed = new ReadableStream({ start(c) { c.close(); } });
const r1 = closed.getReader();
watch('r1.closed', r1.closed);
watch('r1.read', r1.read());
r1.releaseLock();
watch('r1.closed after release', r1.closed);
const errored = new ReadableStream({ start(c) { c.error('bad'); } });
const r2 = errored.getReader();
watch('r2.closed', r2.closed);
watch('r2.read', r2.read());
r2.releaseLock();
watch('r2.closed after release', r2.closed);
watch('errored cancel', errored.cancel());
