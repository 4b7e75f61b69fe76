// ReadableStream.from: @@asyncIterator then @@iterator are read (traced) before the method is
// called; null @@asyncIterator falls back to @@iterator; the iterator method's this is the
// object.
const obj = traced('obj', {
  [Symbol.asyncIterator]: null,
  [Symbol.iterator]: function () { log('this is obj', this === obj); return [][Symbol.iterator](); },
});
attempt('from', () => ReadableStream.from(obj));
const obj2 = traced('obj2', { [Symbol.asyncIterator]: undefined, [Symbol.iterator]: undefined });
attempt('from2', () => ReadableStream.from(obj2));
