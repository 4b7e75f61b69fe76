// tee(): a branch reader released with a pending read (rejects); a new reader on that branch
// gets the next chunk; the other branch is unaffected.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const [a, b] = rs.tee();
const ra = a.getReader();
watch('a pending', ra.read());
ra.releaseLock();
const ra2 = a.getReader();
const rb = b.getReader();
watch('a2', ra2.read());
watch('b1', rb.read());
ctrl.enqueue('v');
ctrl.close();
watch('b2', rb.read());
