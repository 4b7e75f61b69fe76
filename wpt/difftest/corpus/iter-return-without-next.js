// Async iterator: return() before any next() cancels the stream with the value; then next()
// is done.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); },
  cancel(r) { log('cancel', r); },
}));
const it = rs.values();
watch('return', it.return('early'));
watch('next', it.next());
log('locked', rs.locked);
