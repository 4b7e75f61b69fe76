// PENDING (oracle artifact): a Proxy around a CountQueuingStrategy instance used as the strategy.
//   first diff: ref `1.0 getOwnPropertyDescriptor strategy.Symbol(impl)` (the getter works
//   through the proxy), ours `!uncaught TypeError` from the highWaterMark getter.
// Reading: ours is right. The getter runs with this = the Proxy, which is not a platform object
// implementing CountQueuingStrategy, so WebIDL's brand check throws TypeError ("If jsValue
// does not implement the interface target, throw a TypeError", in the steps of WebIDL's
// "attribute getter"; a Proxy is not a platform object). webidl2js finds the
// implementation through the proxy's get of Symbol(impl).
// No comparator rule: after the brand check the two runs do different things (the reference
// reads size, starts the stream, logs desiredSize; ours throws from the constructor), so no
// rule about log lines could equate them without accepting "reference succeeded where ours
// threw". Stays here as an oracle artifact; it never fails the run.
//
// ReadableStream with a CountQueuingStrategy instance (traced): its highWaterMark getter and
// size are read from the prototype.
const s = traced('strategy', new CountQueuingStrategy({ highWaterMark: 2 }));
const rs = new ReadableStream(source('src', {
  start(c) { log('desiredSize', c.desiredSize); c.enqueue('a'); log('desiredSize', c.desiredSize); },
}), s);
log('done');
