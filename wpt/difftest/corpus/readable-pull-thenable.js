// ReadableStream: pull() returns a thenable; the next pull happens only after it resolves.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    c.enqueue(n);
    if (n === 3) { c.close(); return undefined; }
    return thenable('pullThenable' + n, n);
  },
}), { highWaterMark: 2 });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
watch('read4', r.read());
