// pipeTo {preventCancel}: the signal aborts inside pull(), which then enqueues into the pipe's
// pending read: the chunk is written, then only the destination is aborted.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { ac.abort('in pull'); c.enqueue('x'); },
  cancel() { log('cancel must not run'); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal, preventCancel: true }));
