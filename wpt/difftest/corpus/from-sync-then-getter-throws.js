// ReadableStream.from(array) with an Object.prototype.then getter that throws for iterator
// results: the wrapper's promise (first lookup) or nextPromise (second lookup) is rejected
// with the getter's exception, which errors the stream.
let calls = 0;
const r = ReadableStream.from([1, 2, 3]).getReader();
(async () => {
await null; await null; await null; // started: read() pulls synchronously
watch('read1', r.read());
hook(Object.prototype, 'then', {
  get() {
    calls++;
    log('get then', calls, Object.keys(this).sort());
    if (calls === 2) throw new Error('then getter ' + calls);
    return undefined;
  },
});
watch('read2', r.read());
watch('closed', r.closed);
})();
