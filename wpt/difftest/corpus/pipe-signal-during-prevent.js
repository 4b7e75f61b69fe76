// pipeTo with a signal aborted mid-pipe and preventAbort + preventCancel: neither end is
// touched, both are unlocked.
const rs = new ReadableStream(source('src', { cancel() { log('cancel must not run'); } }));
const ws = new WritableStream(source('sink', { abort() { log('abort must not run'); } }));
const ac = new AbortController();
watch('pipe', rs.pipeTo(ws, { signal: ac.signal, preventAbort: true, preventCancel: true }));
(async () => {
  await delay(1);
  ac.abort();
  await delay(1);
  log('locked', rs.locked, ws.locked);
})();
