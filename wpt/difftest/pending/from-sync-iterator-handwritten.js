// PENDING: from(hand-written sync iterable): when iter.next is read.
//   first diff: ref `1.1 get iter.next`, ours `1.0 get iter.next`; later the done read
//   settles at ref 1.17 vs ours 1.16.
// Reading: ours is right. WebIDL 'open an async sequence' calls GetIteratorFromMethod, which
// reads next synchronously inside from(); the reference's yield* wrapper reads it on first resume.
//
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
