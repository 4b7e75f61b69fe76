// ReadableStream: chunks that are thenables or promises are passed through untouched (read
// resolves with an object whose value is thenable: the read promise itself is not adopted).
const rs = new ReadableStream({
  start(c) {
    c.enqueue(Promise.resolve(1));
    c.enqueue(traced('chunk', { a: 1 }));
    c.close();
  },
});
const r = rs.getReader();
r.read().then((x) => log('value is promise', x.value instanceof Promise));
watch('read2', r.read());
