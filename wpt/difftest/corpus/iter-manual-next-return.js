// Async iterator used by hand: next() calls are queued in order; return(value) while a next
// is pending waits for it; later next() gives done.
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  cancel(r) { log('cancel', r); },
}));
const it = rs[Symbol.asyncIterator]();
watch('next1', it.next());
watch('next2', it.next());
watch('return', it.return('rv'));
watch('next3', it.next());
ctrl.enqueue('x');
(async () => {
  await delay(1);
  ctrl.enqueue('y');
  watch('return2', it.return('again'));
})();
