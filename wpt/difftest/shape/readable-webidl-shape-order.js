// SHAPE (not compared with the reference; see ../README.md, "Shape"): the own-key order of
// interface prototype objects and interface objects. The reference (webidl2js class syntax)
// defines `constructor` first; Web IDL's "create an interface prototype object" defines the
// attributes, operations, iteration methods, constants, then "constructor" (and
// @@toStringTag before @@asyncIterator). Ours follows Web IDL, checked by
// crates/streams/src/tests/webidl_shapes.rs. Run this file with difftest to see both logs.
//
// WebIDL shape of the readable-side classes: own property names (in order), descriptor kinds,
// function lengths and names, Symbol.toStringTag, constructor length.
function describe(name, C) {
  const p = C.prototype;
  const out = [];
  for (const k of Reflect.ownKeys(p)) {
    const d = Object.getOwnPropertyDescriptor(p, k);
    const kind = 'value' in d ? (typeof d.value === 'function' ? 'm' + d.value.length : 'v') : 'a' + (d.set ? 'rw' : 'r');
    out.push(String(k) + ':' + kind + (d.enumerable ? 'e' : '') + (d.configurable ? 'c' : '') + (d.writable ? 'w' : ''));
  }
  log(name, C.length, out.join(' '));
  log(name + ' statics', Object.getOwnPropertyNames(C).join(','));
}
describe('ReadableStream', ReadableStream);
describe('ReadableStreamDefaultReader', ReadableStreamDefaultReader);
describe('ReadableStreamBYOBReader', ReadableStreamBYOBReader);
describe('ReadableStreamDefaultController', ReadableStreamDefaultController);
describe('ReadableByteStreamController', ReadableByteStreamController);
describe('ReadableStreamBYOBRequest', ReadableStreamBYOBRequest);
const it = new ReadableStream().values();
const itProto = Object.getPrototypeOf(it);
log('iterator proto', Reflect.ownKeys(itProto).map(String).join(','), Object.prototype.toString.call(it));
log('iterator proto proto has asyncIterator', Symbol.asyncIterator in Object.getPrototypeOf(itProto));
