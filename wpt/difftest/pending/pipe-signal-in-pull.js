// PENDING (likely a real bug in ours): the signal is aborted inside the source's pull(), which then
// enqueues a chunk into the pipe's pending read.
//   first diff: ref `1.7 >sink.abort "in pull"` (after the write of "x" settled; then
//   src.cancel), ours `1.2 >src.cancel "in pull"` (cancel first; sink.abort follows only after
//   the in-flight write of "x" completes); the pipe rejects at ref 1.11 vs ours 1.5.
// Reading: reference right. 'Shutdown with an action' must wait until every chunk that has been
// read has been written before performing the action; "x" was read (into the pipe's pending read)
// after shuttingDown was set but before the action ran. The reference re-checks currentWrite
// until no new write started; ours waits a fixed two microtasks (pipe.rs after_two_microtasks) and
// performs abort-then-cancel while the write is in flight, so WritableStreamAbort defers the sink's
// abort behind the write and the source's cancel becomes observable first.
//
// pipeTo: the signal is aborted from inside the source's pull() (the pipe's read triggered
// it); pull's later enqueue is rejected because the stream is cancelled.
const ac = new AbortController();
const rs = new ReadableStream(source('src', {
  pull(c) { ac.abort('in pull'); attempt('enqueue', () => c.enqueue('x')); },
  cancel(r) { log('cancel', r); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
