// WritableStreamDefaultController.error(): called from start errors the stream; calling it
// again later is a no-op; writes reject.
let ctrl;
const ws = new WritableStream(source('sink', {
  start(c) { ctrl = c; },
  write(chunk) { log('write', chunk); return delay(1); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('closed', w.closed);
(async () => {
  await delay(0);
  ctrl.error(new Error('ctrl'));
  ctrl.error(new Error('ignored'));
  log('desiredSize', w.desiredSize);
})();
