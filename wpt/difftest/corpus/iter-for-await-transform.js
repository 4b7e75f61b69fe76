// for await over a TransformStream's readable while a producer writes: end-to-end ordering.
const ts = new TransformStream({ transform(ch, c) { c.enqueue(ch * ch); } });
(async () => {
  const w = ts.writable.getWriter();
  for (let i = 1; i <= 3; i++) { await w.write(i); log('wrote', i); }
  await w.close();
  log('closed');
})();
(async () => {
  for await (const x of ts.readable) log('got', x);
  log('loop end');
})();
