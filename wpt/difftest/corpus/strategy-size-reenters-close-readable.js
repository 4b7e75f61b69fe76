// ReadableStream: strategy size() calls controller.close() during enqueue with an empty queue:
// the stream closes inside size(), enqueue() does not throw and the chunk is silently lost
// (spec-level re-entrancy hole; both sides agree).
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } }, {
  size() { attempt('close in size', () => ctrl.close()); return 1; },
});
attempt('enqueue', () => ctrl.enqueue('a'));
const r = rs.getReader();
watch('r1', r.read());
watch('r2', r.read());
