// WritableStreamDefaultWriter.desiredSize through writable -> erroring (abort with in-flight
// write) -> errored, and on a closing stream.
let finish;
const ws = new WritableStream({ write() { return new Promise((r) => { finish = r; }); } }, { highWaterMark: 4 });
const w = ws.getWriter();
w.write(1);
log('writing', w.desiredSize);
w.write(2);
log('queued', w.desiredSize);
watch('abort', w.abort('a'));
log('erroring', w.desiredSize);
(async () => {
  await delay(1);
  finish();
  await delay(1);
  log('errored', w.desiredSize);
  const w2 = new WritableStream().getWriter();
  w2.close();
  log('closing', w2.desiredSize);
})();
