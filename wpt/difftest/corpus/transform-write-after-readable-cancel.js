// TransformStream: readable cancelled; the pending backpressured write and a new write reject
// with the cancel reason; writer.closed rejects.
const ts = new TransformStream(source('tr', { transform(ch, c) { c.enqueue(ch); } }));
const w = ts.writable.getWriter();
watch('w1', w.write('a'));
watch('w2', w.write('b'));
(async () => {
  await delay(1);
  watch('cancel', ts.readable.cancel('R'));
  watch('w3', w.write('c'));
  watch('closed', w.closed);
})();
