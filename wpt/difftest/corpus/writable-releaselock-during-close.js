// WritableStream: releaseLock() while close is in flight: the old writer's closed rejects with
// TypeError; the close promise still resolves; stream ends closed.
const ws = new WritableStream(source('sink', { close() { return delay(1); } }));
const w = ws.getWriter();
watch('close', w.close());
(async () => {
  await null;
  w.releaseLock();
  watch('closed after release', w.closed);
  await delay(2);
  const w2 = ws.getWriter();
  watch('w2.closed', w2.closed);
})();
