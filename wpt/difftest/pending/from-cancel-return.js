// PENDING: from(sync iterator) then cancel() before any read: is return() called?
//   first diff: ref `1.0 cancel ok undefined` (return never called), ours `1.0 >return "why"`.
// Reading: ours is right. 'close an async iterator' calls the AsyncFromSyncIterator's return,
// which (ECMA-262 %AsyncFromSyncIteratorPrototype%.return) calls the sync iterator's return.
// The reference's async-generator wrapper is still suspendedStart, so its return() completes
// without reaching the inner iterator. (Known from(syncIterator)+cancel area.)
//
// ReadableStream.from(iterator) then cancel(reason): the iterator's return() is called with
// the reason; its result must be an object.
const it = {
  [Symbol.iterator]() { return this; },
  next() { return { value: 1, done: false }; },
  return: cb('return', (v) => ({ done: true, value: v })),
};
const rs = ReadableStream.from(it);
watch('cancel', rs.cancel('why'));
