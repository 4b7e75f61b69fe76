// pipeTo aborted by a signal while several writes are queued in a destination with hwm 3 and
// slow writes: the shutdown waits for every chunk read to be written (currentWrite changes
// while it waits), then aborts the destination and cancels the source.
const ac = new AbortController();
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { c.enqueue(n++); },
  cancel(r) { log('cancelled', r); },
}), { highWaterMark: 2 });
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); return delay(1); },
  abort(r) { log('aborted', r); },
}), { highWaterMark: 3 });
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
(async () => {
  for (let k = 0; k < 4; k++) await null;
  ac.abort('stop');
  log('abort called');
})();
