// pipeTo: the signal is aborted from inside the source's pull() (the pipe's read triggered
// it); pull's later enqueue is rejected because the stream is cancelled.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { ac.abort('in pull'); attempt('enqueue', () => c.enqueue('x')); },
  cancel(r) { log('cancel', r); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
