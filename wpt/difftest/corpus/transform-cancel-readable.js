// TransformStream: cancelling the readable side calls transformer.cancel(reason) and errors
// the writable side with the reason.
const ts = new TransformStream(source('tr', {
  cancel(reason) { log('cancel reason', reason); },
  flush() { log('flush must not run'); },
}));
const w = ts.writable.getWriter();
watch('w.closed', w.closed);
watch('cancel', ts.readable.cancel('stop'));
watch('w1', w.write('x'));
