// tee() of a byte stream whose start enqueues: both branches get independent copies (writing
// into one branch's chunk does not affect the other).
const rs = new ReadableStream({
  type: 'bytes',
  start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); },
});
const [a, b] = rs.tee();
const ra = a.getReader();
const rb = b.getReader();
(async () => {
  const x = await ra.read();
  x.value[0] = 100;
  log('a', x);
  log('b', await rb.read());
  log('a2', await ra.read());
  log('b2', await rb.read());
})();
