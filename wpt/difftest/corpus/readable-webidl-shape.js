// WebIDL shape of the readable-side classes: own property names (sorted; the own-key order
// is in pending/readable-webidl-shape-order.js), descriptor kinds, function lengths, statics.
function describe(name, C) {
  const p = C.prototype;
  const out = [];
  for (const k of Reflect.ownKeys(p).sort((a, b) => (String(a) < String(b) ? -1 : 1))) {
    const d = Object.getOwnPropertyDescriptor(p, k);
    const kind = 'value' in d ? (typeof d.value === 'function' ? 'm' + d.value.length : 'v') : 'a' + (d.set ? 'rw' : 'r');
    out.push(String(k) + ':' + kind + (d.enumerable ? 'e' : '') + (d.configurable ? 'c' : '') + (d.writable ? 'w' : ''));
  }
  log(name, C.length, out.join(' '));
  log(name + ' statics', Object.getOwnPropertyNames(C).sort().join(','));
}
describe('ReadableStream', ReadableStream);
describe('ReadableStreamDefaultReader', ReadableStreamDefaultReader);
describe('ReadableStreamBYOBReader', ReadableStreamBYOBReader);
describe('ReadableStreamDefaultController', ReadableStreamDefaultController);
describe('ReadableByteStreamController', ReadableByteStreamController);
describe('ReadableStreamBYOBRequest', ReadableStreamBYOBRequest);
const it = new ReadableStream().values();
const itProto = Object.getPrototypeOf(it);
log('iterator proto', Reflect.ownKeys(itProto).map(String).sort().join(','), Object.prototype.toString.call(it));
log('iterator proto proto has asyncIterator', Symbol.asyncIterator in Object.getPrototypeOf(itProto));
