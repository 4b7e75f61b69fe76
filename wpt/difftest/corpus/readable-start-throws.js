// ReadableStream: start() throwing makes the constructor throw; start() returning a rejected
// promise errors the stream; a reader sees the error on read() and closed.
attempt('ctor', () => new ReadableStream(source('s1', { start() { throw new Error('boom'); } })));
const rs = new ReadableStream(source('s2', {
  start() { return Promise.reject(new Error('later')); },
  pull() { log('pull must not run'); },
}));
const r = rs.getReader();
watch('closed', r.closed);
watch('read', r.read());
watch('cancel', r.cancel('x'));
