// pipeTo: the destination is closed by its sink erroring on close? No: by controller.error
// during an idle pipe with preventCancel: the source stays readable with its queued chunks.
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
