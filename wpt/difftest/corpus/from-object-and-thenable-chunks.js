// ReadableStream.from(): WebIDL's "get the next value" resolves its promise with the value
// itself, so an object chunk's "then" is read (seen through an Object.prototype.then getter)
// and a thenable chunk from a hand-written async iterator is adopted (the stream gets the
// value it resolves with). End of iteration is not an object: no "then" is read for it.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
const r1 = ReadableStream.from([{ a: 1 }]).getReader();
r1.read().then((r) => log('sync read', r.value, r.done));
let i = 0;
const it = {
  [Symbol.asyncIterator]() { return this; },
  next: cb('next', () => Promise.resolve(i++ === 0
    ? { value: thenable('chunk', 'adopted'), done: false }
    : { value: undefined, done: true })),
};
const r2 = ReadableStream.from(it).getReader();
r2.read().then((r) => log('async read', r.value, r.done));
r2.read().then((r) => log('async read 2', r.value, r.done));
