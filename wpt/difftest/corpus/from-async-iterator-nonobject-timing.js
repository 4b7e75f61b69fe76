// ReadableStream.from(async iterator) whose next() fulfils with a non-object: the TypeError
// errors the stream in the pull reaction (issue 8, deviation 1).
const it = {
  [Symbol.asyncIterator]() { return this; },
  next: cb('next', () => Promise.resolve(42)),
};
const reader = ReadableStream.from(it).getReader();
reader.read().then((r) => log('r1', r.value, r.done), (e) => log('r1 err', e));
watch('closed', reader.closed);
