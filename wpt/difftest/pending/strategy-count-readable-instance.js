// PENDING (oracle artifact): a Proxy around a CountQueuingStrategy instance used as the strategy.
//   first diff: ref `1.0 getOwnPropertyDescriptor strategy.Symbol(impl)` (the getter works
//   through the proxy), ours `!uncaught TypeError` from the highWaterMark getter.
// Reading: ours is right. The getter runs with this = the Proxy, which is not a platform object
// implementing CountQueuingStrategy, so WebIDL's brand check throws TypeError. webidl2js
// finds the implementation through the proxy's get of Symbol(impl).
//
// ReadableStream with a CountQueuingStrategy instance (traced): its highWaterMark getter and
// size are read from the prototype.
const s = traced('strategy', new CountQueuingStrategy({ highWaterMark: 2 }));
const rs = new ReadableStream(source('src', {
  start(c) { log('desiredSize', c.desiredSize); c.enqueue('a'); log('desiredSize', c.desiredSize); },
}), s);
log('done');
