// TransformStream: readable.cancel() then controller.terminate() in the same turn: terminate
// errors the writable side with TypeError, so the cancel promise rejects with that TypeError.
let tc;
const ts = new TransformStream(source('tr', { start(c) { tc = c; }, cancel(r) { log('cancel', r); return delay(1); } }));
(async () => {
  await delay(1);
  watch('cancel', ts.readable.cancel('C'));
  tc.terminate();
  const w = ts.writable.getWriter();
  watch('closed', w.closed);
})();
