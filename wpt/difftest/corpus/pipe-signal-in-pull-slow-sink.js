// pipeTo: the signal aborts inside pull(), which then enqueues into the pipe's pending read;
// the sink's write of that chunk takes a timer: the spec waits for the write before running the
// abort and cancel actions, so the source's cancel happens only after the write finishes.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { ac.abort('in pull'); c.enqueue('x'); },
  cancel(r) { log('cancel', r); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); return delay(1).then(() => log('write done')); },
  abort(r) { log('abort', r); },
}));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
