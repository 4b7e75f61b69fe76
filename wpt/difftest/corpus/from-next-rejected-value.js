// ReadableStream.from(sync iterator): a yielded rejected promise errors the stream with its
// reason (the async-from-sync wrapper awaits values).
const p = Promise.reject(new Error('yielded rejection'));
p.catch(() => {});
const it = [1, p, 3][Symbol.iterator]();
const r = ReadableStream.from(it).getReader();
r.read().then((x) => log('read1 value', x.value));
r.read().then(() => log('read2 must not fulfil'), (e) => log('read2 err', e));
r.closed.catch((e) => log('closed err', e));
