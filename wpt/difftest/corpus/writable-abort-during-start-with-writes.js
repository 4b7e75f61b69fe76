// WritableStream: abort() while start is pending with writes queued: the signal fires at once,
// queued writes reject, and the sink's abort runs only after start settles.
let finishStart, ctrl;
const ws = new WritableStream(source('sink', {
  start(c) { ctrl = c; c.signal.addEventListener('abort', () => log('signal', c.signal.reason)); return new Promise((r) => { finishStart = r; }); },
  write() { log('write must not run'); },
  abort(r) { log('sink abort', r); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('abort', w.abort('A'));
log('after abort call');
(async () => { await delay(1); log('start resolves'); finishStart(); })();
