// ReadableStream: error() with pending reads rejects them in order and closed; the error
// value identity is preserved.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const r = rs.getReader();
const e = new Error('X');
r.read().catch((x) => log('read1 same error', x === e));
watch('read2', r.read());
watch('closed', r.closed);
(async () => { await delay(1); ctrl.error(e); })();
