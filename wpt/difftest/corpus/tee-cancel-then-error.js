// tee(): branch A cancelled, then the source errors: branch B errors and A's cancel promise
// resolves (the source's cancel is never called); settlement order logged.
let ctrl;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; }, cancel(r) { log('src cancel', r); } }));
const [a, b] = rs.tee();
watch('a.cancel', a.cancel('A'));
const rb = b.getReader();
watch('b.closed', rb.closed);
(async () => { await delay(1); ctrl.error(new Error('boom')); })();
