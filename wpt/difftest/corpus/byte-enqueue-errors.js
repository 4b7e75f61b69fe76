// ReadableByteStream: enqueue() argument errors: zero-length view, detached buffer, non-view;
// close() twice.
let ctrl;
new ReadableStream({ type: 'bytes', start(c) { ctrl = c; } });
attempt('zero length', () => ctrl.enqueue(new Uint8Array(0)));
attempt('not a view', () => ctrl.enqueue([1]));
const dv = new Uint8Array(2);
structuredClone(dv.buffer, { transfer: [dv.buffer] });
attempt('detached', () => ctrl.enqueue(dv));
attempt('dataview', () => ctrl.enqueue(new DataView(new ArrayBuffer(3))));
log('desiredSize', ctrl.desiredSize);
attempt('close', () => ctrl.close());
attempt('close again', () => ctrl.close());
attempt('enqueue after close', () => ctrl.enqueue(new Uint8Array(1)));
