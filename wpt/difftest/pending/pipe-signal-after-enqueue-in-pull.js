// PENDING: pull() enqueues into the pipe's pending read, then aborts the signal.
//   first diff: ref `1.6 >sink.abort "after enqueue"`, ours `1.5 >sink.abort ..`; the pipe
//   rejects at ref 1.10 vs ours 1.8.
// Reading: reference right (its wait for the written chunk takes one more microtask before the
// actions, then the early-finalize difference of pipe-signal-before adds one more). Order of the
// actions agrees here (the write settled before the actions); compare pipe-signal-in-pull.
//
// pipeTo: pull() enqueues into the pipe's pending read and then aborts the signal: the chunk
// must be written before the destination is aborted and the source cancelled.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { c.enqueue('x'); ac.abort('after enqueue'); },
  cancel(r) { log('cancel', r); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
