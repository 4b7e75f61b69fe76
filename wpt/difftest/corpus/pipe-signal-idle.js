// pipeTo with a signal aborted while the pipe is idle (waiting for a read): abort the
// destination and cancel the source, with the signal's reason (DOMException by default).
const ac = new AbortController();
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', { abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
(async () => { await delay(1); ac.abort(); log('aborted'); })();
