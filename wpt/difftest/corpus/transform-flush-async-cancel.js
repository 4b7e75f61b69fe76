// TransformStream: readable.cancel() while flush() is pending: cancel resolves; close's result
// follows the flush outcome.
let finishFlush;
const ts = new TransformStream(source('tr', {
  flush() { return new Promise((r) => { finishFlush = r; }); },
  cancel(r) { log('cancel', r); },
}));
const w = ts.writable.getWriter();
watch('close', w.close());
(async () => {
  await delay(1);
  watch('cancel', ts.readable.cancel('C'));
  await delay(1);
  finishFlush();
})();
