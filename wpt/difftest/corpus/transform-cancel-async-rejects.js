// TransformStream: transformer.cancel rejects: readable.cancel() rejects with that error;
// the writable side is errored with it.
const ts = new TransformStream(source('tr', {
  cancel() { return delay(1).then(() => { throw new Error('cancelfail'); }); },
}));
const w = ts.writable.getWriter();
watch('w.closed', w.closed);
watch('cancel', ts.readable.cancel('R'));
