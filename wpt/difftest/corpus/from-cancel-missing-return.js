// ReadableStream.from(iterator) without return(): cancel resolves; with return() returning a
// primitive, cancel rejects with TypeError.
const it1 = { [Symbol.iterator]() { return this; }, next() { return { value: 1, done: false }; } };
watch('cancel no return', ReadableStream.from(it1).cancel('a'));
const it2 = {
  [Symbol.iterator]() { return this; },
  next() { return { value: 1, done: false }; },
  return: cb('return2', () => 7),
};
watch('cancel primitive return', ReadableStream.from(it2).cancel('b'));
const it3 = {
  [Symbol.iterator]() { return this; },
  next() { return { value: 1, done: false }; },
  return: cb('return3', () => { throw new Error('ret'); }),
};
watch('cancel throwing return', ReadableStream.from(it3).cancel('c'));
