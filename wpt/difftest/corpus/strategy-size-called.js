// ReadableStream with a size() strategy: size is called on enqueue with the chunk and
// no this value (a sloppy function sees the global object); desiredSize reflects sizes.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } }, {
  highWaterMark: 10,
  size: cb('size', function (chunk) { log('this is global', this === globalThis); return chunk.length; }),
});
ctrl.enqueue('abc');
log('desiredSize', ctrl.desiredSize);
ctrl.enqueue('defgh');
log('desiredSize', ctrl.desiredSize);
const r = rs.getReader();
watch('read', r.read());
log('desiredSize after read queued', ctrl.desiredSize);
