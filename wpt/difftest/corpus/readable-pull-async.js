// ReadableStream: pull() returns a promise resolved by a timer; no second pull while one is
// pending even when several reads are queued.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    const k = n;
    return delay(1).then(() => {
      log('enqueue', k);
      c.enqueue(k);
      if (k === 3) c.close();
    });
  },
}), { highWaterMark: 0 });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
watch('read4', r.read());
