// ReadableStream: close() then enqueue() throws TypeError; double close throws; queued chunks
// still drain before closed resolves.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
ctrl.enqueue('a');
attempt('close', () => ctrl.close());
attempt('enqueue after close', () => ctrl.enqueue('b'));
attempt('close twice', () => ctrl.close());
log('desiredSize', ctrl.desiredSize);
const r = rs.getReader();
watch('closed', r.closed);
watch('read1', r.read());
watch('read2', r.read());
log('desiredSize after reads queued', ctrl.desiredSize);
