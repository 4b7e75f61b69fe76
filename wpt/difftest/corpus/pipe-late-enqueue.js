// pipeTo: chunks are enqueued by timers into the pipe's pending read (never synchronously
// written inside enqueue); the sink logs each write.
let ctrl;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; } }));
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); },
  close() { log('close'); },
}));
watch('pipe', rs.pipeTo(ws));
(async () => {
  for (const x of ['a', 'b', 'c']) {
    await delay(1);
    log('enqueue', x);
    ctrl.enqueue(x);
    log('enqueue returned');
  }
  await delay(1);
  ctrl.close();
})();
