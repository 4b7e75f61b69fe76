// ReadableStream: cancel() while a pull promise is pending: cancel is called immediately;
// the pull's later enqueue throws (stream closed).
let finishPull;
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  pull(c) { return new Promise((r) => { finishPull = r; }); },
  cancel(reason) { log('cancel', reason); },
}));
const r = rs.getReader();
watch('read', r.read());
(async () => {
  await delay(1);
  watch('cancel', r.cancel('c'));
  attempt('enqueue after cancel', () => ctrl.enqueue(1));
  finishPull();
  log('desiredSize', ctrl.desiredSize);
})();
