// WritableStream: close() while start is pending; abort() while start is pending: the sink's
// abort waits for start.
let resolveStart;
const ws = new WritableStream(source('sink', {
  start() { return new Promise((r) => { resolveStart = r; }); },
  close() { log('close must not run'); },
  abort(r) { log('abort', r); },
}));
const w = ws.getWriter();
watch('close', w.close());
watch('abort', w.abort('A'));
watch('closed', w.closed);
(async () => { await delay(1); log('start resolves'); resolveStart(); })();
