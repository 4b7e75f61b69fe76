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
