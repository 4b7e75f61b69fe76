// pipeTo: the destination's controller errors mid-pipe (no sink write failure): the source is
// cancelled with that error.
let wctrl;
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; return delay(1).then(() => c.enqueue(n)); },
  cancel(r) { log('cancel', r); },
}));
const ws = new WritableStream(source('sink', {
  start(c) { wctrl = c; },
  write(ch) { log('write', ch); },
}));
watch('pipe', rs.pipeTo(ws));
(async () => {
  await delay(3);
  wctrl.error(new Error('dest'));
})();
