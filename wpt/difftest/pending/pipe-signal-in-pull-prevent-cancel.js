// PENDING (same bug as pipe-signal-in-pull, preventCancel variant): only the abort action.
//   first diff: ref `1.7 >sink.abort "in pull"`, ours `1.2 >sink.abort "in pull"`.
// Reading: reference right: the abort action must wait until the chunk read after shutdown began
// has been written (its write promise settled); ours performs WritableStreamAbort at once.
//
// pipeTo {preventCancel}: the signal aborts inside pull(), which then enqueues into the pipe's
// pending read: the chunk is written, then only the destination is aborted.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { ac.abort('in pull'); c.enqueue('x'); },
  cancel() { log('cancel must not run'); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal, preventCancel: true }));
