// Strategies with getters (traced): highWaterMark and size getters are read once each, in
// order, at construction; a throwing getter propagates.
const s = traced('strategy', {
  get highWaterMark() { log('hwm getter'); return 1; },
  get size() { log('size getter'); return undefined; },
});
new WritableStream({}, s);
attempt('throwing hwm', () => new ReadableStream({}, { get highWaterMark() { throw new Error('hwm'); } }));
attempt('throwing size getter', () => new ReadableStream({}, { get size() { throw new Error('size'); } }));
attempt('size not callable', () => new ReadableStream({}, { size: 5 }));
attempt('byte stream with size', () => new ReadableStream({ type: 'bytes' }, { size() { return 1; } }));
attempt('byte stream hwm', () => new ReadableStream({ type: 'bytes', start(c) { log('byte desiredSize', c.desiredSize); } }, { highWaterMark: 7 }));
