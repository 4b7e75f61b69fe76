// PENDING: the signal is aborted inside the sink's write(); the actions run after the in-flight
// write; the pipe rejects one microtask earlier in ours.
//   first diff: ref `3.4 pipe err "in write"`, ours `3.3 pipe err "in write"`.
// Reading: reference right; the early-finalize family of pending/pipe-signal-before and
// pipe-signal-idle (abort + cancel both settle synchronously).
//
// pipeTo: the signal is aborted from inside the sink's write(): the in-flight write finishes,
// then the destination is aborted and the source cancelled.
const ac = new AbortController();
let ctrl;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; }, cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', {
  write(ch) { ac.abort('in write'); log('aborted inside write'); return delay(1); },
  abort(r) { log('abort', r); },
}));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
(async () => { await delay(1); ctrl.enqueue('a'); })();
