// ReadableStream: start() returns a promise that resolves later; pull() is not called until
// start settles, then pulls on demand; pull enqueues a counter and closes at 3.
let n = 0;
let resolveStart;
const rs = new ReadableStream(source('src', {
  start(c) { return new Promise((r) => { resolveStart = r; }); },
  pull(c) {
    n++;
    log('pull', n, c.desiredSize);
    c.enqueue(n);
    if (n === 3) c.close();
  },
}));
const r = rs.getReader();
watch('read1', r.read());
(async () => {
  await delay(1);
  log('resolving start');
  resolveStart();
  await delay(1);
  watch('read2', r.read());
  watch('read3', r.read());
  watch('read4', r.read());
  watch('closed', r.closed);
})();
