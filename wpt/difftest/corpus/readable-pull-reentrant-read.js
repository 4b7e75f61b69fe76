// ReadableStream: pull() enqueues and then synchronously calls reader.read() again from inside
// pull; no re-entrant pull happens.
let r;
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) {
    n++;
    c.enqueue(n);
    if (n < 3) watch('inner read ' + n, r.read());
    else c.close();
  },
}), { highWaterMark: 0 });
r = rs.getReader();
watch('outer read', r.read());
