// WritableStream: controller.signal abort listeners run synchronously within abort(), before
// abort() returns and before the sink's abort; a listener calling controller.error.
let ctrl;
const ws = new WritableStream(source('sink', {
  start(c) { ctrl = c; },
  write() { return delay(1); },
  abort(r) { log('sink abort', r); },
}));
const w = ws.getWriter();
ctrl.signal.addEventListener('abort', () => { log('listener 1'); ctrl.error(new Error('from listener')); });
ctrl.signal.addEventListener('abort', () => log('listener 2'));
(async () => {
  await delay(1);
  watch('w', w.write('a'));
  log('before abort');
  watch('abort', w.abort('R'));
  log('after abort');
  watch('closed', w.closed);
})();
