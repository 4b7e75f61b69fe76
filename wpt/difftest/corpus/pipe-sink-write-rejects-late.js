// pipeTo: the sink's write rejects after a timer while the source keeps enqueueing late: the
// source is cancelled with the error; later enqueues throw.
let ctrl;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; }, cancel(r) { log('cancel', r); } }));
const ws = new WritableStream(source('sink', {
  write(ch) { return delay(1).then(() => { throw new Error('late write fail'); }); },
}));
watch('pipe', rs.pipeTo(ws));
(async () => {
  await delay(1);
  ctrl.enqueue('a');
  await delay(3);
  attempt('enqueue after', () => ctrl.enqueue('b'));
})();
