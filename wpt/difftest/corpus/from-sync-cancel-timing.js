// ReadableStream.from(sync iterator) then cancel(reason): %AsyncFromSyncIteratorPrototype%.return
// calls the iterator's return() synchronously inside cancel() (issue 8, deviation 2).
const it = {
  [Symbol.iterator]() { return this; },
  next: cb('next', () => ({ value: 1, done: false })),
  return: cb('return', (r) => ({ value: r, done: true })),
};
const rs = ReadableStream.from(it);
const p = rs.cancel('reason');
log('cancel returned');
watch('cancel', p);
