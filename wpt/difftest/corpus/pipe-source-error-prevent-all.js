// pipeTo with all prevent* flags: the source errors later: the pipe rejects, the destination
// is untouched and both are unlocked.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const ws = new WritableStream(source('sink', { abort() { log('abort must not run'); }, close() { log('close must not run'); } }));
watch('pipe', rs.pipeTo(ws, { preventClose: true, preventAbort: true, preventCancel: true }));
(async () => {
  await delay(1);
  ctrl.error(new Error('E'));
  await delay(1);
  log('locked', rs.locked, ws.locked);
})();
