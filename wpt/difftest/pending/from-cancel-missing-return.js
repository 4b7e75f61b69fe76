// PENDING: from(sync iterator) cancel() before any read, with missing / primitive / throwing return().
//   first diff: ref `1.0 cancel no return ok undefined` (no return() called at all),
//   ours `1.0 >return2 "b"`; ours rejects the primitive case with TypeError and the throwing
//   case with its error, the reference resolves all three.
// Reading: ours is right (see from-cancel-return: the reference's yield* wrapper never calls the
// inner return() before the first next()).
//
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
