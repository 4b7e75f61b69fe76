// ReadableStream: close() with several pending reads fulfils all of them with done, in order,
// relative to the reader's closed promise.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const r = rs.getReader();
watch('closed', r.closed);
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
(async () => { await delay(1); ctrl.close(); log('closed sync'); })();
