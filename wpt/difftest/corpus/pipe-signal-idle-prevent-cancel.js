// pipeTo with a signal aborted while idle and preventCancel: only the destination is aborted.
const ac = new AbortController();
const rs = new ReadableStream(source('src', { cancel() { log('cancel must not run'); } }));
const ws = new WritableStream(source('sink', { abort(r) { log('abort', r); return delay(1); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal, preventCancel: true }));
(async () => { await delay(1); ac.abort(new Error('A')); await delay(3); log('rs locked', rs.locked); })();
