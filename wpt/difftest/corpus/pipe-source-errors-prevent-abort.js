// pipeTo with preventAbort: the source error is not propagated; the writer is released and
// the destination stays writable.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const ws = new WritableStream(source('sink', {
  abort() { log('abort must not run'); },
}));
watch('pipe', rs.pipeTo(ws, traced('opts', { preventAbort: true })));
(async () => {
  await delay(1);
  ctrl.error(new Error('src'));
  await delay(1);
  log('ws locked', ws.locked);
  const w = ws.getWriter();
  watch('write', w.write('still'));
})();
