// pipeTo: the destination's controller errors while a write is in flight (preventCancel): the
// pipe rejects once the error is seen; the source is released with its state intact.
let wc, ctrl, finish;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const ws = new WritableStream(source('sink', {
  start(c) { wc = c; },
  write(ch) { return new Promise((r) => { finish = r; }); },
}));
watch('pipe', rs.pipeTo(ws, { preventCancel: true }));
(async () => {
  await delay(1);
  ctrl.enqueue('a');
  await delay(1);
  wc.error(new Error('dest'));
  log('errored');
  await delay(1);
  finish();
  await delay(1);
  log('rs locked', rs.locked);
})();
