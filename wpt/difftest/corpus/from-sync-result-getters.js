// ReadableStream.from(sync iterator) whose next() returns results with logging `done` /
// `value` getters (read once each, at the pull), an own `then` on the result (never looked up:
// the wrapper makes its own iterator result), a throwing `value` getter, then a
// non-object result.
let i = 0;
const it = {
  [Symbol.iterator]() { return this; },
  next() {
    const n = i++;
    log('next', n);
    if (n === 3) return { get done() { log('get done', n); return false; }, get value() { log('get value throws', n); throw new Error('value ' + n); } };
    if (n === 5) return 'not an object';
    return {
      get done() { log('get done', n); return false; },
      get value() { log('get value', n); return 'v' + n; },
      then() { log('own then called', n); },
    };
  },
  return() { log('return'); return {}; },
};
const r1 = ReadableStream.from(it).getReader();
watch('r1 read1', r1.read());
watch('r1 read2', r1.read());
watch('r1 read3', r1.read());
watch('r1 read4', r1.read());
watch('r1 closed', r1.closed);
delay(0).then(() => {
  i = 4;
  const r2 = ReadableStream.from(it).getReader();
  watch('r2 read1', r2.read());
  watch('r2 read2', r2.read());
  watch('r2 closed', r2.closed);
});
