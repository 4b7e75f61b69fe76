// ReadableStream: reads queued before any chunk are fulfilled directly by enqueue() (no
// queueing); pull is called again after each fulfilled read.
let ctrl;
const rs = new ReadableStream(source('src', {
  start(c) { ctrl = c; },
  pull(c) { log('pull', c.desiredSize); },
}), { highWaterMark: 0 });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
(async () => {
  await delay(1);
  ctrl.enqueue('a');
  log('after enqueue a', ctrl.desiredSize);
  ctrl.enqueue('b');
  ctrl.enqueue('c');
  log('after enqueue c', ctrl.desiredSize);
  watch('read3', r.read());
  ctrl.close();
})();
