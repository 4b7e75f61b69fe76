// Async iterator: return() while a next() is waiting on an async pull; cancel is called
// after the pending next settles (return waits for ongoing next).
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; return delay(1).then(() => c.enqueue(n)); },
  cancel(r) { log('cancel', r); },
}));
const it = rs.values();
watch('next', it.next());
watch('return', it.return('bye'));
log('locked', rs.locked);
