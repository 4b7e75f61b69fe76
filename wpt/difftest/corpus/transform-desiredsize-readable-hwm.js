// TransformStreamDefaultController.desiredSize tracks the readable side: enqueue lowers it,
// reads raise it; null after error, 0 after terminate.
let tc;
const ts = new TransformStream({ start(c) { tc = c; } }, undefined, { highWaterMark: 2 });
log('start', tc.desiredSize);
tc.enqueue(1);
log('after enqueue', tc.desiredSize);
tc.enqueue(2);
tc.enqueue(3);
log('after 3', tc.desiredSize);
const r = ts.readable.getReader();
r.read().then(() => log('after read', tc.desiredSize));
const ts2 = new TransformStream({ start(c) { c.error(new Error('x')); log('errored', c.desiredSize); } });
const ts3 = new TransformStream({ start(c) { c.terminate(); log('terminated', c.desiredSize); } });
