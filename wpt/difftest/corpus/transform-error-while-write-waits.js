// TransformStream: a write waits on backpressure (readable full); controller.error() while it
// waits: the write rejects with the error, transform is never called.
let tc;
const ts = new TransformStream(source('tr', {
  start(c) { tc = c; },
  transform() { log('transform must not run'); },
}));
const w = ts.writable.getWriter();
watch('w1', w.write('a'));
(async () => {
  await delay(1);
  tc.error(new Error('E'));
  watch('closed', w.closed);
})();
