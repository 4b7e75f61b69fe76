// TransformStreamDefaultController.terminate() inside transform: the readable side closes,
// the writable side errors with TypeError; enqueue after terminate throws.
const ts = new TransformStream(source('tr', {
  transform(chunk, c) {
    c.enqueue(chunk);
    c.terminate();
    attempt('enqueue after terminate', () => c.enqueue('x'));
    log('desiredSize', c.desiredSize);
  },
  flush() { log('flush must not run'); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w.closed', w.closed);
watch('r.closed', r.closed);
watch('w1', w.write('a'));
watch('w2', w.write('b'));
watch('r1', r.read());
watch('r2', r.read());
