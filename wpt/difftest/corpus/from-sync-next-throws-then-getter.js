// ReadableStream.from(iterable) whose next() throws, with an Object.prototype.then getter
// installed after the pull: the wrapper's promise is rejected at the pull, no iterator result
// is created, and the error reaches read() at the spec's tick.
const iterable = { [Symbol.iterator]() { return { next() { log('next'); throw new Error('boom'); }, return() { log('return'); return {}; } }; } };
const r = ReadableStream.from(iterable).getReader();
(async () => {
await null; await null; await null; // started: read() pulls synchronously
watch('read1', r.read());
hook(Object.prototype, 'then', { get() { log('get then', Object.keys(this).sort()); return undefined; } });
watch('closed', r.closed);
})();
