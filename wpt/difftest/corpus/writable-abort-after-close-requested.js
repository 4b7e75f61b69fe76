// WritableStream: abort() after close() was requested but before the sink's close runs
// (writes still queued): abort wins, the queued writes and close reject.
const ws = new WritableStream(source('sink', {
  write(ch) { return delay(1); },
  close() { log('close must not run'); },
  abort(r) { log('abort', r); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('close', w.close());
watch('abort', w.abort('A'));
watch('closed', w.closed);
