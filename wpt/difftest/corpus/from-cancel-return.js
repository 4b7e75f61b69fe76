// ReadableStream.from(iterator) then cancel(reason): the iterator's return() is called with
// the reason; its result must be an object.
const it = {
  [Symbol.iterator]() { return this; },
  next() { return { value: 1, done: false }; },
  return: cb('return', (v) => ({ done: true, value: v })),
};
const rs = ReadableStream.from(it);
watch('cancel', rs.cancel('why'));
