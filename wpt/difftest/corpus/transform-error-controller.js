// TransformStreamDefaultController.error() inside transform: both sides error with the
// reason; the transform's own return value does not matter.
const ts = new TransformStream(source('tr', {
  transform(chunk, c) { c.error(new Error('E')); return 'ignored'; },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w1', w.write('a'));
watch('r1', r.read());
watch('w.closed', w.closed);
watch('r.closed', r.closed);
