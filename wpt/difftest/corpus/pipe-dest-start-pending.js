// pipeTo into a destination whose start() is pending: no read happens until the
// destination's ready resolves after start; late chunks flow afterwards.
let ctrl, finishStart;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; }, pull() {} }));
const ws = new WritableStream(source('sink', {
  start() { return new Promise((r) => { finishStart = r; }); },
  write(ch) { log('write', ch); },
  close() {},
}));
watch('pipe', rs.pipeTo(ws));
(async () => {
  await delay(1);
  finishStart();
  await delay(1);
  ctrl.enqueue('a');
  await delay(1);
  ctrl.close();
})();
