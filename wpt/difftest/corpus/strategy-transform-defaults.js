// TransformStream default strategies: writable hwm 1, readable hwm 0; desiredSize of both
// sides and the controller at start.
const ts = new TransformStream(source('tr', {
  start(c) { log('controller desiredSize', c.desiredSize); },
}));
const w = ts.writable.getWriter();
log('writer desiredSize', w.desiredSize);
const ts2 = new TransformStream({ start(c) { log('ts2 desiredSize', c.desiredSize); } }, { highWaterMark: 0 }, { highWaterMark: Infinity });
log('ts2 writer desiredSize', ts2.writable.getWriter().desiredSize);
