// ReadableStream.from(hand-written async iterator) whose next() returns an already-resolved
// promise: "a promise resolved with" it is a new promise (issue 8, deviation 1).
let i = 0;
const it = {
  [Symbol.asyncIterator]() { return this; },
  next: cb('next', () => Promise.resolve(i < 2 ? { value: i++, done: false } : { value: undefined, done: true })),
};
const reader = ReadableStream.from(it).getReader();
const rd = (n) => reader.read().then((r) => { log(n, r.value, r.done); }, (e) => log(n, 'err', e));
rd('r1'); rd('r2'); rd('r3');
