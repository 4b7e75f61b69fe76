// ReadableStream: strategy size() calls reader.read() re-entrantly while the queue is empty:
// that read request is not served by the chunk size() is measuring, which is queued after it
// (spec-level re-entrancy hole pinned; the read stays pending).
let ctrl, r;
const rs = new ReadableStream({ start(c) { ctrl = c; } }, {
  highWaterMark: 3,
  size(ch) { log('size', ch); watch('read in size', r.read()); return 1; },
});
r = rs.getReader();
watch('pending read', r.read());
ctrl.enqueue('direct');
ctrl.enqueue('queued');
log('desiredSize', ctrl.desiredSize);
