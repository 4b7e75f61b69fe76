// pipeTo with preventCancel: the destination is errored by controller.error() while the pipe
// is idle; the source is released (not cancelled) and keeps later chunks.
let wc, rc;
const rs = new ReadableStream(source('src', { start(c) { rc = c; }, cancel() { log('cancel must not run'); } }));
const ws = new WritableStream({ start(c) { wc = c; } });
watch('pipe', rs.pipeTo(ws, { preventCancel: true }));
(async () => {
  await delay(1);
  wc.error(new Error('dest gone'));
  await delay(1);
  rc.enqueue('kept');
  log('locked', rs.locked);
  watch('read', rs.getReader().read());
})();
