// TransformStream: readable.cancel() while a transform promise is pending; the write later
// settles; transformer.cancel is called.
let finish;
const ts = new TransformStream(source('tr', {
  transform(chunk, c) { return new Promise((r) => { finish = r; }); },
  cancel(reason) { log('cancel', reason); },
}), undefined, { highWaterMark: 1 });
const w = ts.writable.getWriter();
watch('w1', w.write('a'));
(async () => {
  await delay(1);
  watch('cancel', ts.readable.cancel('C'));
  watch('w.closed', w.closed);
  await delay(1);
  finish();
})();
