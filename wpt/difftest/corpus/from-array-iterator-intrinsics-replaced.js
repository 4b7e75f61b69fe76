// ReadableStream.from(array) when the array's iteration is not reached through
// Array.prototype: an own Symbol.iterator that returns the intrinsic values() iterator (the
// intrinsic next, reached through a method call the program sees), one that returns a
// user iterator over the array, and an array whose prototype is a plain object with the
// intrinsic values() as its Symbol.iterator, changed mid-stream.
(async () => {
  const a1 = [30, 31];
  a1[Symbol.iterator] = function () { log('own iterator'); return Array.prototype.values.call(this); };
  const r1 = ReadableStream.from(a1).getReader();
  watch('r1 read1', r1.read());
  a1[1] = 'changed 31';
  watch('r1 read2', r1.read());
  watch('r1 read3', r1.read());
  await delay(0);
  const a2 = [40, 41];
  a2[Symbol.iterator] = function () {
    let i = 0;
    return { next: () => { log('user next', i); return i < this.length ? { value: this[i++], done: false } : { value: 'end', done: true }; } };
  };
  const r2 = ReadableStream.from(a2).getReader();
  watch('r2 read1', r2.read());
  watch('r2 read2', r2.read());
  watch('r2 read3', r2.read());
  await delay(0);
  const proto = { [Symbol.iterator]: Array.prototype.values };
  const a3 = [50, 51, 52];
  Object.setPrototypeOf(a3, proto);
  const r3 = ReadableStream.from(a3).getReader();
  watch('r3 read1', r3.read());
  await delay(0);
  Object.defineProperty(proto, 1, { get() { log('proto getter 1'); return 'unused'; } });
  Object.defineProperty(a3, 1, { get() { log('own getter 1'); return 'getter 51'; } });
  watch('r3 read2', r3.read());
  delete a3[2];
  Object.defineProperty(proto, 2, { get() { log('proto getter 2', this === a3); return 'proto 52'; } });
  watch('r3 read3', r3.read());
  watch('r3 read4', r3.read());
})();
