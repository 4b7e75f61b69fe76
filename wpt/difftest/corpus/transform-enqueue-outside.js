// TransformStream: controller.enqueue() from outside (a timer) while no transform runs; the
// readable side gets it; backpressure flips on the writable side.
let tc;
const ts = new TransformStream(source('tr', { start(c) { tc = c; } }));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('ready0', w.ready);
(async () => {
  await delay(1);
  tc.enqueue('outside');
  log('desiredSize', tc.desiredSize, w.desiredSize);
  watch('ready1', w.ready);
  watch('r1', r.read());
  watch('r2', r.read());
  tc.terminate();
})();
