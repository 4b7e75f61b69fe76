// ReadableStream: cancel() returns a promise resolved later; the cancel promise waits for it;
// reads during the pending cancel see done.
let finish;
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue('q'); },
  cancel(reason) { return new Promise((r) => { finish = r; }); },
}));
const r = rs.getReader();
watch('closed', r.closed);
watch('cancel', r.cancel('reason'));
watch('read', r.read());
(async () => {
  await delay(1);
  log('finishing');
  finish('value ignored');
})();
