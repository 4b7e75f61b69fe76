// pipeTo: all chunks from a start-enqueued closed source are written, then the sink closes;
// the pipe promise resolves after close.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); c.close(); },
}));
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); },
  close() { log('close'); },
}));
watch('pipe', rs.pipeTo(ws));
log('locked', rs.locked, ws.locked);
