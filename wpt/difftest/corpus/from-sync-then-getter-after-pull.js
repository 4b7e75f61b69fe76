// ReadableStream.from(array): an Object.prototype.then getter installed right after the pull
// (synchronously after read()) is called on the iterator results at the ticks the spec looks
// `then` up (the wrapper's resolve function and nextPromise's resolve function), and a getter
// that starts returning a function turns an iterator result into a thenable.
let calls = 0;
const rs = ReadableStream.from(['a', 'b', { x: 1 }]);
const r = rs.getReader();
(async () => {
await null; await null; await null; // started: read() pulls synchronously
watch('read1', r.read());
hook(Object.prototype, 'then', {
  get() {
    calls++;
    log('get then', calls, Object.keys(this).sort());
    if (calls === 4) return function (res) { log('then called', Object.keys(this).sort()); res(this); };
    return undefined;
  },
});
watch('read2', r.read());
watch('read3', r.read());
watch('read4', r.read());
})();
