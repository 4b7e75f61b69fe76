// WebIDL shape of the writable, transform and strategy classes: own property names (sorted;
// order in pending/writable-webidl-shape-order.js), kinds, lengths, toStringTag.
function describe(name, C) {
  const p = C.prototype;
  const out = [];
  for (const k of Reflect.ownKeys(p).sort((a, b) => (String(a) < String(b) ? -1 : 1))) {
    const d = Object.getOwnPropertyDescriptor(p, k);
    const kind = 'value' in d ? (typeof d.value === 'function' ? 'm' + d.value.length : 'v') : 'a' + (d.set ? 'rw' : 'r');
    out.push(String(k) + ':' + kind + (d.enumerable ? 'e' : '') + (d.configurable ? 'c' : '') + (d.writable ? 'w' : ''));
  }
  log(name, C.length, out.join(' '));
}
describe('WritableStream', WritableStream);
describe('WritableStreamDefaultWriter', WritableStreamDefaultWriter);
describe('WritableStreamDefaultController', WritableStreamDefaultController);
describe('TransformStream', TransformStream);
describe('TransformStreamDefaultController', TransformStreamDefaultController);
describe('CountQueuingStrategy', CountQueuingStrategy);
describe('ByteLengthQueuingStrategy', ByteLengthQueuingStrategy);
