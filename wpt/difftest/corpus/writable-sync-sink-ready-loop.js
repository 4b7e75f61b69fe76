// Fast-path probe: a synchronous sink with hwm 2; the producer awaits ready before each write
// and does not await writes; positions of ready/write settlements.
const ws = new WritableStream(source('sink', { write(c) {} }), { highWaterMark: 2 });
const w = ws.getWriter();
(async () => {
  for (let i = 0; i < 5; i++) {
    await w.ready;
    log('ready', i, w.desiredSize);
    w.write(i).then(() => log('written', i));
  }
  await w.close();
  log('closed');
})();
