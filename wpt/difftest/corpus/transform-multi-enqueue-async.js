// TransformStream: transform awaits between enqueues (async function); the readable side reads
// as chunks appear; the next transform waits for the previous promise.
const ts = new TransformStream(source('tr', {
  async transform(ch, c) {
    c.enqueue(ch + ':1');
    await null;
    c.enqueue(ch + ':2');
    await delay(1);
    c.enqueue(ch + ':3');
  },
}), undefined, { highWaterMark: 10 });
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('wa', w.write('a'));
watch('wb', w.write('b'));
watch('close', w.close());
(async () => {
  for (;;) { const x = await r.read(); log('read', x); if (x.done) break; }
})();
