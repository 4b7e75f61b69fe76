// PENDING (likely a real bug in ours; clearest form of pipe-signal-in-pull): the signal aborts inside
// pull(), pull then enqueues into the pipe's pending read, and the sink's write of that chunk
// takes a timer.
//   first diff: ref `2.0 write done` (then sink.abort and src.cancel at 2.7), ours
//   `1.2 >src.cancel "in pull"`, a whole task before the write finishes.
// Reading: reference right: 'shutdown with an action' waits until every chunk that has been read
// has been written before performing the actions; ours runs them after a fixed two microtasks.
//
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
