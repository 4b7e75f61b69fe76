// ReadableStream.from with a hand-written async iterator whose next() returns a rejecting
// promise on the second call (from(asyncIterable) timing is a known deviation area).
let n = 0;
const it = {
  [Symbol.asyncIterator]() { return this; },
  next() {
    n++;
    log('next', n);
    if (n === 2) return Promise.reject(new Error('async next'));
    return Promise.resolve({ value: n, done: false });
  },
};
const r = ReadableStream.from(it).getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('closed', r.closed);
