// pipeThrough with a signal: aborting it cancels the source and aborts the transform's
// writable side (the readable side errors with the reason).
const ac = new AbortController();
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); } }));
const out = rs.pipeThrough(new TransformStream(source('tr', { cancel(r) { log('tr cancel', r); } })), { signal: ac.signal });
const r = out.getReader();
watch('read', r.read());
watch('closed', r.closed);
(async () => { await delay(1); ac.abort(new Error('A')); })();
