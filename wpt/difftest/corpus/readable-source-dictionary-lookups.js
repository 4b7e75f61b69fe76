// ReadableStream({...}): the UnderlyingSource members found on the source itself, on its
// prototype chain (a class instance, Object.create), on Object.prototype (data and getter),
// through a proxy on the chain, and a getter on the source; conversions that add members
// mid-read; start returning a thenable. (Dictionary::get reads plain data lookups directly.)
class Src { pull(c) { log('class pull'); c.enqueue('a'); } }
const s1 = new ReadableStream(new Src());
s1.getReader().read().then((r) => log('class read', r));
const s2 = new ReadableStream(Object.create({ type: 'bytes', pull(c) { log('bytes pull', c.byobRequest === null); c.close(); } }));
log('s2 locked', s2.locked);
hook(Object.prototype, 'pull', { value: function (c) { log('proto pull', this === src3); c.enqueue(1); }, writable: true });
const src3 = {};
const s3 = new ReadableStream(src3);
s3.getReader().read().then((r) => log('proto read', r));
hook(Object.prototype, 'cancel', { get() { log('cancel getter', typeof this); return undefined; } });
attempt('getter on Object.prototype', () => new ReadableStream({ start() { log('start'); } }));
const proxied = Object.create(traced('protoProxy', {}));
attempt('proxy on the chain', () => new ReadableStream(proxied));
attempt('getter on source', () => new ReadableStream({ get start() { log('start getter'); return () => thenable('startResult', 1); } }));
attempt('aacs valueOf adds type', () => {
  const src = { autoAllocateChunkSize: { valueOf() { log('valueOf'); src.type = 'bytes'; return 8; } } };
  return new ReadableStream(src);
});
attempt('type toString adds start', () => {
  const src = { type: { toString() { log('toString'); src.start = () => log('late start'); return 'bytes'; } } };
  return new ReadableStream(src);
});
attempt('function source', () => { const f = function () {}; f.pull = () => log('fn pull'); return new ReadableStream(f); });
attempt('bad type', () => new ReadableStream({ type: 'byte' }));
attempt('strategy on chain', () => new ReadableStream({}, Object.create({ highWaterMark: 0, size() { return 1; } })));
attempt('aacs NaN before pull', () => new ReadableStream({ autoAllocateChunkSize: NaN, pull: 1 }));
attempt('aacs symbol', () => new ReadableStream({ autoAllocateChunkSize: Symbol('s'), type: 'bytes' }));
attempt('aacs zero', () => new ReadableStream({ autoAllocateChunkSize: 0, type: 'bytes' }));
attempt('type symbol', () => new ReadableStream({ type: Symbol('t') }));
attempt('cancel not callable', () => new ReadableStream({ cancel: {}, start() { log('never'); } }));
attempt('aacs string', () => new ReadableStream({ autoAllocateChunkSize: '16', type: 'bytes' }));
