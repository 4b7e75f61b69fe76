// ReadableStream: size() calls controller.enqueue re-entrantly (the inner chunk is queued
// first) and reads desiredSize.
let ctrl;
let depth = 0;
const rs = new ReadableStream({ start(c) { ctrl = c; } }, {
  highWaterMark: 5,
  size(chunk) {
    log('size', chunk, ctrl.desiredSize);
    if (depth === 0) { depth++; ctrl.enqueue('inner'); depth--; }
    return 1;
  },
});
ctrl.enqueue('outer');
log('desiredSize', ctrl.desiredSize);
const r = rs.getReader();
watch('r1', r.read());
watch('r2', r.read());
