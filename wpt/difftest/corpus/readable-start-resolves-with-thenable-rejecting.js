// ReadableStream: start() returns a promise resolved with a rejecting thenable: the stream
// errors with the thenable's reason after the extra resolution steps.
const rs = new ReadableStream(source('src', {
  start() {
    return Promise.resolve({ then(res, rej) { log('>then'); rej(new Error('via thenable')); } });
  },
  pull() { log('pull must not run'); },
}));
const r = rs.getReader();
watch('closed', r.closed);
watch('read', r.read());
