// WritableStream: chunks of any type (undefined, null, objects, typed arrays) are passed
// through unchanged; the controller argument is the same object each time.
let firstCtrl;
const ws = new WritableStream(source('sink', {
  write(ch, c) { if (!firstCtrl) firstCtrl = c; log('same controller', c === firstCtrl); },
}));
const w = ws.getWriter();
watch('w1', w.write());
watch('w2', w.write(null));
watch('w3', w.write({ a: [1] }));
watch('w4', w.write(new Uint8Array([1])));
watch('close', w.close());
