// Async iteration of a byte stream: chunks come as Uint8Array views; break cancels.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { n++; c.enqueue(new Uint8Array([n, n])); },
  cancel(r) { log('cancel', r); },
}));
(async () => {
  for await (const chunk of rs) {
    log('chunk', chunk);
    if (n === 2) break;
  }
})();
