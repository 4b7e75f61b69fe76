// pipeTo: a slow sink write is in flight when the signal aborts; a chunk that was already read
// must still be written before the actions run.
const ac = new AbortController();
let ctrl;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; }, cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); return delay(2); },
  abort(r) { log('abort', r); },
}), { highWaterMark: 2 });
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
(async () => {
  await delay(1);
  ctrl.enqueue('a');
  ctrl.enqueue('b');
  await delay(1);
  ac.abort('mid');
})();
