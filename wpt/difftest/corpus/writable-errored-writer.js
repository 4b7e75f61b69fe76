// WritableStreamDefaultWriter on an errored stream: closed rejects; ready rejects; desiredSize
// null; releaseLock replaces both with TypeError rejections.
const ws = new WritableStream({ start(c) { c.error(new Error('E')); } });
const w = ws.getWriter();
watch('closed', w.closed);
watch('ready', w.ready);
(async () => {
  await delay(1);
  log('desiredSize', w.desiredSize);
  w.releaseLock();
  watch('closed2', w.closed);
  watch('ready2', w.ready);
  const w2 = ws.getWriter();
  watch('w2.closed', w2.closed);
  log('w2 desiredSize', w2.desiredSize);
})();
