// WritableStream with highWaterMark 0: ready is pending from the start and desiredSize is 0;
// a write still reaches the sink; backpressure stays on after it finishes.
const ws = new WritableStream(source('sink', { write(c) { log('write', c); return delay(1); } }), { highWaterMark: 0 });
const w = ws.getWriter();
log('desiredSize', w.desiredSize);
watch('ready', w.ready);
watch('w1', w.write(1));
log('desiredSize', w.desiredSize);
(async () => { await delay(3); log('desiredSize later', w.desiredSize); watch('close', w.close()); })();
