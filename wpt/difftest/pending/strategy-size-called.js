// PENDING (oracle artifact): the this value of a strategy's size() call.
//   first diff: ref `1.0 this {queueMicrotask:fn:,TextDecoder:fn:TextDecoder,TextEncoder:fn:TextEncoder,structuredClone:fn
//   ours `1.0 this undefined`....
// Reading: ours is right. ExtractSizeAlgorithm invokes strategy["size"] with no this value
// (WebIDL: thisArg undefined). The reference's webidl2js invokeTheCallbackFunction passes its own
// sloppy-mode `this` (the global object) as thisArg. The tool could normalise or programs should
// not log `this` of size().
//
// ReadableStream with a size() strategy: size is called on enqueue with the chunk and
// undefined this; desiredSize reflects sizes.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } }, {
  highWaterMark: 10,
  size: cb('size', function (chunk) { log('this', this); return chunk.length; }),
});
ctrl.enqueue('abc');
log('desiredSize', ctrl.desiredSize);
ctrl.enqueue('defgh');
log('desiredSize', ctrl.desiredSize);
const r = rs.getReader();
watch('read', r.read());
log('desiredSize after read queued', ctrl.desiredSize);
