// Async iteration: the stream errors; next() rejects; a following next() resolves done.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; c.enqueue(1); } });
const it = rs.values();
watch('next1', it.next());
watch('next2', it.next());
ctrl.error(new Error('E'));
(async () => {
  await delay(1);
  watch('next3', it.next());
  watch('return', it.return('x'));
  log('locked', rs.locked);
})();
