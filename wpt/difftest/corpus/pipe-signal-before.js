// pipeTo with an already-aborted signal (known deviation area: ours may reject one
// microtask early): source cancelled and destination aborted with the reason.
const ac = new AbortController();
ac.abort('pre');
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', { abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
