// ReadableStream.from(async iterator) whose next() returns native promises with an own
// `constructor` getter: nextPromise's thenable job calls %Promise.prototype.then% on the
// promise, whose SpeciesConstructor runs the getter (logging, then throwing, then returning
// a logging subclass) at the job's tick.
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
    const p = Promise.resolve({ value: i, done: i > 4 });
    if (i === 1) Object.defineProperty(p, 'constructor', { get: cb('get constructor', () => Promise) });
    if (i === 2) Object.defineProperty(p, 'constructor', { get: cb('get constructor', () => Sub) });
    if (i === 4) Object.defineProperty(p, 'constructor', { get: cb('get constructor', () => { throw new Error('ctor'); }) });
    return p;
  }),
};
const r = ReadableStream.from(it).getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
watch('read4', r.read());
watch('read5', r.read());
watch('closed', r.closed);
