// WritableStream: abort() while close is in flight: abort resolves after close finishes and
// the stream ends closed (sink abort not called).
let finishClose;
const ws = new WritableStream(source('sink', {
  close() { return new Promise((r) => { finishClose = r; }); },
  abort() { log('abort must not run'); },
}));
const w = ws.getWriter();
(async () => {
  await delay(1);
  watch('close', w.close());
  watch('abort', w.abort('A'));
  watch('closed', w.closed);
  await delay(1);
  finishClose();
})();
