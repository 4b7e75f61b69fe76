// Async iterator: the stream is cancelled via the iterator's return while a next() is
// pending; later next() and return() resolve done.
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  cancel(r) { log('cancel', r); return delay(1); },
}));
const it = rs.values();
watch('next1', it.next());
watch('return1', it.return('r'));
watch('next2', it.next());
watch('return2', it.return('s'));
(async () => { await delay(1); ctrl.enqueue('late'); })();
