// pipeTo into a destination with highWaterMark 0 (always backpressure): per the spec the pipe
// waits for ready, so no chunk is read (WPT expects the pipe to stall); the source is
// cancelled by a signal after a while.
const ac = new AbortController();
let pulls = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { pulls++; c.enqueue(pulls); },
  cancel(r) { log('cancel', r); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }), { highWaterMark: 0 });
watch('pipe', rs.pipeTo(ws, { signal: ac.signal, preventAbort: true }));
(async () => { await delay(2); log('pulls', pulls); ac.abort('stop'); })();
