// WritableStream: abort() while start is pending, then start rejects: the pending abort request
// still runs the sink's abort (WritableStreamFinishErroring) and abort() resolves.
let failStart;
const ws = new WritableStream(source('sink', {
  start() { return new Promise((_, rej) => { failStart = rej; }); },
  abort(r) { log('sink abort', r); },
}));
const w = ws.getWriter();
watch('abort', w.abort('A'));
watch('closed', w.closed);
(async () => { await delay(1); failStart(new Error('start failed')); })();
