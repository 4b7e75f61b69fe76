// Async iteration: values() on a locked stream throws; the iterator prototype chain and
// next on a released-then-relocked stream.
const rs = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
const r = rs.getReader();
attempt('values locked', () => rs.values());
attempt('asyncIterator locked', () => rs[Symbol.asyncIterator]());
r.releaseLock();
const it = rs.values({ preventCancel: false });
log('locked after values()', rs.locked);
watch('next', it.next());
watch('next2', it.next());
watch('next3', it.next());
