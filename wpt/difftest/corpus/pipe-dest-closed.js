// pipeTo into an already closed destination: the source is cancelled with a TypeError and the
// pipe rejects with TypeError.
const rs = new ReadableStream(source('src', {
  cancel(reason) { log('cancel', reason); },
}));
const ws = new WritableStream();
const w = ws.getWriter();
watch('close', w.close());
(async () => {
  await delay(1);
  w.releaseLock();
  watch('pipe', rs.pipeTo(ws));
})();
