// ReadableStream: error() with undefined, a string, an object and a DOMException; the
// reader's closed rejects with exactly that value.
for (const [name, reason] of [['undef', undefined], ['str', 's'], ['obj', { k: 1 }], ['dom', new DOMException('m', 'DataError')]]) {
  const rs = new ReadableStream({ start(c) { c.error(reason); } });
  watch(name, rs.getReader().closed);
}
