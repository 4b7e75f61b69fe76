// Native ends with larger high water marks on both sides: the source fills its queue before
// the pipe starts reading; the sink's backpressure never blocks.
const rs = nativeSource('src', [[1], [2], [3], [4], [5]], 4);
const ws = nativeSink('sink', 3);
const w = ws.getWriter();
log('desired', w.desiredSize);
watch('ready', w.ready);
w.releaseLock();
watch('pipe', rs.pipeTo(ws, { preventClose: true })).then(() => {
  const w2 = ws.getWriter();
  log('after', w2.desiredSize);
  return watch('close', w2.close());
});
