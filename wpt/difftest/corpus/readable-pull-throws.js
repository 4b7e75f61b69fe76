// ReadableStream: pull() throws on the second call; pending and later reads reject; cancel
// after error rejects with the stored error.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    if (n === 2) throw new Error('pullfail');
    c.enqueue(n);
  },
  cancel() { log('cancel must not run'); },
}), { highWaterMark: 0 });
const r = rs.getReader();
watch('closed', r.closed);
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
(async () => {
  await delay(1);
  watch('cancel', rs.cancel());
  watch('read4', r.read());
})();
