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
