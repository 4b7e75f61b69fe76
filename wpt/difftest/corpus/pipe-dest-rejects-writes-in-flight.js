// pipeTo into a destination with hwm 3 whose second write rejects while others are queued:
// the queued writes reject too, and the cancel of the source waits for nothing (the
// destination is errored).
const rs = new ReadableStream(source('src', {
  start(c) { for (const x of [1, 2, 3, 4, 5, 6]) c.enqueue(x); },
  cancel(r) { log('cancelled', r); },
}));
let k = 0;
const ws = new WritableStream(source('sink', {
  write(ch) { k++; if (k === 2) return Promise.reject(new Error('w2')); return null; },
}), { highWaterMark: 3 });
watch('pipe', rs.pipeTo(ws));
