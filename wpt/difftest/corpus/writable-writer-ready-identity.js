// WritableStreamDefaultWriter: ready/closed identity across accesses and after state changes;
// ready after abort is a rejected promise replaced once.
const ws = new WritableStream({ write() { return delay(1); } });
const w = ws.getWriter();
log('ready identity', w.ready === w.ready, 'closed identity', w.closed === w.closed);
const r0 = w.ready;
w.write(1).catch(() => {});
const r1 = w.ready;
log('replaced on backpressure', r0 !== r1);
watch('abort', w.abort('X'));
const r2 = w.ready;
log('replaced on abort', r1 !== r2);
watch('r1', r1);
watch('r2', r2);
