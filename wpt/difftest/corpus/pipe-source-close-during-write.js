// pipeTo: the source closes while the destination's write is in flight: the pipe waits for
// the write before closing the destination.
let ctrl, finish;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); return new Promise((r) => { finish = r; }); },
  close() { log('close'); },
}));
watch('pipe', rs.pipeTo(ws));
(async () => {
  await delay(1);
  ctrl.enqueue('a');
  await delay(1);
  ctrl.close();
  log('source closed');
  await delay(1);
  finish();
})();
