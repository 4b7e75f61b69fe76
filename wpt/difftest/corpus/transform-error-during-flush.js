// TransformStream: controller.error() inside flush: the close promise rejects and the
// readable errors; flush's returned value is ignored.
const ts = new TransformStream(source('tr', {
  flush(c) { c.error(new Error('in flush')); return 'x'; },
}));
const r = ts.readable.getReader();
watch('close', ts.writable.getWriter().close());
watch('r1', r.read());
watch('closed', r.closed);
