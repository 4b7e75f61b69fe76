// WritableStream: abort() on an idle stream calls the sink's abort with the reason; the
// controller signal fires; closed/ready reject.
let ctrl;
const ws = new WritableStream(source('sink', {
  start(c) {
    ctrl = c;
    c.signal.addEventListener('abort', () => log('signal abort', c.signal.reason));
  },
  abort(reason) { log('sink abort', reason); return delay(1); },
}));
const w = ws.getWriter();
watch('closed', w.closed);
watch('ready', w.ready);
(async () => {
  await delay(1);
  watch('abort', w.abort('R'));
  log('signal aborted', ctrl.signal.aborted);
  watch('write after abort', w.write(1));
  watch('abort again', w.abort('R2'));
})();
