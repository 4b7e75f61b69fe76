// TransformStreams without a start member (and without a controller script can see): the
// start steps of both sides run at the ticks of the spec's startPromise reactions (fast paths:
// no startPromise is made). Writes, reads, close and abort issued before and between them.
let tick = 0;
const ticker = () => { if (tick < 8) { log('tick', tick++); queueMicrotask(ticker); } };
queueMicrotask(ticker);
const a = new TransformStream();
const wa = a.writable.getWriter();
const ra = a.readable.getReader();
watch('a ready', wa.ready);
watch('a w1', wa.write('x'));
watch('a r1', ra.read());
watch('a close', wa.close());
watch('a closed', ra.closed);
const b = new TransformStream(source('b', { cancel(reason) {} }));
const wb = b.writable.getWriter();
watch('b abort', wb.abort('why'));
watch('b closed', wb.closed);
watch('b rclosed', b.readable.getReader().closed);
const c = new TransformStream(undefined, { highWaterMark: 0 });
const wc = c.writable.getWriter();
log('c desiredSize', wc.desiredSize);
watch('c ready', wc.ready);
queueMicrotask(() => { watch('c cancel', c.readable.cancel('stop')); watch('c closed', wc.closed); });
