// ReadableStream: strategy size() calls controller.error() during enqueue: enqueue() does not
// throw, desiredSize is null and the stream ends errored.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } }, {
  size() { ctrl.error(new Error('from size')); return 1; },
});
attempt('enqueue', () => ctrl.enqueue('a'));
log('desiredSize', ctrl.desiredSize);
watch('closed', rs.getReader().closed);
