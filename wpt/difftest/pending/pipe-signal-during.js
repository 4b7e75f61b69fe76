// PENDING: pipeTo with a signal aborted mid-pipe: the pipe promise rejects one microtask earlier in ours (cancel/abort calls themselves agree).
//   first diff: ref `4.6 pipe err Error(stop)`,
//   ours `4.5 pipe err Error(stop)`.
// Reading: reference right; the early-finalize family of pipe-signal-before / pipe-signal-idle
// (abort + cancel run at the same positions, only the pipe's settlement is one microtask early).
//
// pipeTo with an AbortSignal aborted mid-pipe: the source is cancelled and the destination
// aborted with the signal's reason.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; return delay(1).then(() => c.enqueue(n)); },
  cancel(r) { log('cancel', r); },
}));
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); },
  abort(r) { log('abort', r); },
}));
const ac = new AbortController();
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
(async () => {
  await delay(3);
  log('aborting');
  ac.abort(new Error('stop'));
})();
