// ReadableStream: read queued chunk with reader 1, release, reader 2 reads the rest; closed of
// reader 1 rejects, reader 2 resolves.
const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } });
const r1 = rs.getReader();
watch('r1.read', r1.read());
watch('r1.closed', r1.closed);
r1.releaseLock();
const r2 = rs.getReader();
watch('r2.read1', r2.read());
watch('r2.read2', r2.read());
watch('r2.closed', r2.closed);
