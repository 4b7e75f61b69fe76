// ReadableStream.from(sync iterable) with an Object.prototype.then getter that returns a
// function: every iterator result the wrapper creates is a thenable, adopted through its
// `then` (called with fresh resolving functions) by the wrapper's promise and by nextPromise.
let calls = 0;
const it = {
  [Symbol.iterator]() { return this; },
  i: 0,
  next() { log('next', this.i); return this.i < 2 ? { value: this.i++, done: false } : { value: 'end', done: true }; },
};
const r = ReadableStream.from(it).getReader();
(async () => {
await null; await null; await null; // started: read() pulls synchronously
hook(Object.prototype, 'then', {
  get() {
    calls++;
    const keys = Object.keys(this).sort().join('+');
    log('get then', calls, keys);
    if (keys !== 'done+value' || calls > 6) return undefined;
    return function (res, rej) { log('then called', calls, typeof res, typeof rej); res({ value: 'via then ' + calls, done: false }); };
  },
});
watch('read1', r.read());
watch('read2', r.read());
delay(0).then(() => { delete Object.prototype.then; log('removed'); watch('read3', r.read()); watch('read4', r.read()); });
})();
