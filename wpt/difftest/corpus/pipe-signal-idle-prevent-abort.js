// pipeTo with a signal aborted while idle and preventAbort: only the source is cancelled.
const ac = new AbortController();
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); return delay(1); } }));
const ws = new WritableStream(source('sink', { abort() { log('abort must not run'); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal, preventAbort: true }));
(async () => { await delay(1); ac.abort(new Error('A')); })();
