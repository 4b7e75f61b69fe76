// WritableStreamDefaultWriter.closed after release on a closed stream; ready after close
// resolves; desiredSize on closed stream is 0.
const ws = new WritableStream();
const w = ws.getWriter();
watch('close', w.close());
(async () => {
  await delay(1);
  log('desiredSize closed', w.desiredSize);
  watch('ready', w.ready);
  w.releaseLock();
  watch('closed after release', w.closed);
  const w2 = ws.getWriter();
  watch('w2.closed', w2.closed);
  watch('w2.write', w2.write(1));
  watch('w2.close', w2.close());
  log('w2 desiredSize', w2.desiredSize);
})();
