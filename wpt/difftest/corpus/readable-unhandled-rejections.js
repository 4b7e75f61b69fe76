// Unobserved rejections: reader.closed (marked handled by the spec) vs read() and cancel()
// promises (not handled, so the host reports them); nothing is watched on purpose.
const e = new Error('E');
const rs = new ReadableStream({ start(c) { c.error(e); } });
const r = rs.getReader();
r.read();
r.closed;
const rs2 = new ReadableStream({ cancel() { throw new Error('cancel'); } });
rs2.cancel();
const rs3 = new ReadableStream();
const r3 = rs3.getReader();
r3.releaseLock();
r3.closed;
log('end of script');
