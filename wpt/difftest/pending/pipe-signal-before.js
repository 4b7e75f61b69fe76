// PENDING: pipeTo with an already-aborted signal (abort + cancel actions).
//   first diff: ref `1.4 pipe err "pre"`, ours `1.3 pipe err "pre"`.
// Reading: known deviation (being fixed elsewhere): ours rejects one microtask early. The sink's
// abort and the source's cancel run at the same positions; only the settlement of the
// 'wait for all' of the two actions + finalize is one microtask shorter in ours. Reference right.
//
// pipeTo with an already-aborted signal (known deviation area: ours may reject one
// microtask early): source cancelled and destination aborted with the reason.
const ac = new AbortController();
ac.abort('pre');
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', { abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
