// pipeTo: pull() enqueues into the pipe's pending read and then aborts the signal: the chunk
// must be written before the destination is aborted and the source cancelled.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { c.enqueue('x'); ac.abort('after enqueue'); },
  cancel(r) { log('cancel', r); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
