// ReadableStream: controller.error() called synchronously inside start(); then further
// enqueue/close/error calls from start are checked.
const rs = new ReadableStream(source('src', {
  start(c) {
    c.enqueue(1);
    c.error(new Error('e1'));
    log('desiredSize', c.desiredSize);
    attempt('enqueue', () => c.enqueue(2));
    attempt('close', () => c.close());
    attempt('error again', () => c.error(new Error('e2')));
  },
  pull() { log('pull must not run'); },
}));
const r = rs.getReader();
watch('closed', r.closed);
watch('read', r.read());
