// WritableStream: abort() while a write is in flight: the sink's abort waits for the write to
// finish; queued writes reject; signal aborts synchronously.
let finishWrite;
const ws = new WritableStream(source('sink', {
  start(c) { c.signal.onabort = () => log('onabort'); },
  write(chunk) { return new Promise((r) => { finishWrite = r; }); },
  abort(reason) { log('sink abort', reason); },
}));
const w = ws.getWriter();
(async () => {
  await delay(1);
  watch('w1', w.write(1));
  watch('w2', w.write(2));
  watch('abort', w.abort('A'));
  watch('closed', w.closed);
  await delay(1);
  log('finishing write');
  finishWrite();
})();
