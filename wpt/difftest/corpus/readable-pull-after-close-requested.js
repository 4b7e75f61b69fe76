// ReadableStream: close() while chunks are queued: pull is never called again; the reader
// drains and then closes.
let pulls = 0;
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); c.close(); },
  pull() { pulls++; },
}), { highWaterMark: 5 });
const r = rs.getReader();
(async () => {
  log(await r.read());
  log(await r.read());
  log(await r.read());
  log('pulls', pulls);
})();
