// TransformStream: aborting the writable side calls transformer.cancel(reason); the readable
// side errors with the reason.
const ts = new TransformStream(source('tr', {
  cancel(reason) { log('cancel reason', reason); return delay(1); },
}));
const r = ts.readable.getReader();
watch('r.closed', r.closed);
watch('r1', r.read());
watch('abort', ts.writable.abort('ab'));
