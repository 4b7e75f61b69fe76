// tee(): both branches cancelled while a chunk is queued in the source; the source's cancel
// gets both reasons; reading the branches afterwards gives done.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue('q'); },
  cancel(r) { log('cancel', r); },
}));
const [a, b] = rs.tee();
const ra = a.getReader();
watch('a1', ra.read());
(async () => {
  await delay(1);
  watch('a.cancel', ra.cancel('x'));
  watch('b.cancel', b.cancel('y'));
  watch('b read', b.getReader().read());
})();
