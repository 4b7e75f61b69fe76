// ReadableStream: synchronous start() enqueues two chunks and closes; a default reader drains
// them; desiredSize, closed and the read order are logged.
const rs = new ReadableStream(source('src', {
  start(c) {
    log('desiredSize', c.desiredSize);
    c.enqueue('a');
    log('desiredSize', c.desiredSize);
    c.enqueue('b');
    c.close();
    log('desiredSize after close', c.desiredSize);
  },
  pull(c) { log('pull must not run'); },
}));
const r = rs.getReader();
watch('closed', r.closed);
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
watch('read4', r.read());
log('locked', rs.locked);
