// TransformStream: a write waits on backpressure; writable.abort() while it waits: the write
// rejects, transformer.cancel runs, the readable side errors.
const ts = new TransformStream(source('tr', {
  transform() { log('transform must not run'); },
  cancel(r) { log('cancel', r); },
}));
const w = ts.writable.getWriter();
watch('w1', w.write('a'));
(async () => {
  await delay(1);
  watch('abort', w.abort('AB'));
  watch('r', ts.readable.getReader().read());
})();
