// ReadableStream.from with a hand-written sync iterable: Symbol.asyncIterator is looked up
// first, then Symbol.iterator; next() results are read via traced getters.
let i = 0;
const iterable = traced('iterable', {
  [Symbol.iterator]() {
    log('@@iterator called');
    return traced('iter', {
      next() {
        i++;
        return traced('result' + i, { done: i > 2, value: i });
      },
    });
  },
});
const rs = ReadableStream.from(iterable);
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
