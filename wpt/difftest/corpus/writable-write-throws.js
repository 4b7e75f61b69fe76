// WritableStream: the sink's write throws; that write rejects, the stream errors, queued
// writes and close reject; abort is not called on the sink.
const ws = new WritableStream(source('sink', {
  write(chunk) { if (chunk === 2) throw new Error('w2'); },
  close() { log('close must not run'); },
  abort() { log('abort must not run'); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('w3', w.write(3));
watch('close', w.close());
watch('closed', w.closed);
watch('ready', w.ready);
