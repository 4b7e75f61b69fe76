// Async iterator: several next() calls without awaiting; the source pulls lazily; close ends
// the pending ones with done.
let ctrl;
let pulls = 0;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  pull() { pulls++; },
}));
const it = rs[Symbol.asyncIterator]();
for (let i = 0; i < 4; i++) watch('next' + i, it.next());
(async () => {
  await delay(1);
  ctrl.enqueue('a');
  await delay(1);
  ctrl.enqueue('b');
  ctrl.close();
  log('pulls', pulls);
})();
