// ReadableStream.from(async iterator) whose next() returns, in turn: a plain iterator result
// (no promise), a thenable, a subclass promise (its constructor runs in the thenable job's
// `then`), a promise resolved with a thenable value, a rejected subclass promise.
class Sub extends Promise {
  constructor(executor) {
    log('new Sub');
    super(executor);
  }
}
let i = 0;
const it = {
  [Symbol.asyncIterator]() { return this; },
  next: cb('next', () => {
    i++;
    switch (i) {
      case 1: return { value: 'plain', done: false };
      case 2: return thenable('t', { value: 'via thenable', done: false });
      case 3: return Sub.resolve({ value: 'sub', done: false });
      case 4: return Promise.resolve({ value: thenable('v', 'inner'), done: false });
      default: return Sub.reject(new Error('sub rejected'));
    }
  }),
};
const r = ReadableStream.from(it).getReader();
for (let k = 1; k <= 6; k++) watch('read' + k, r.read());
watch('closed', r.closed);
