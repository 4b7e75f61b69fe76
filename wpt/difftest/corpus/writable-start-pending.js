// WritableStream: start() returns a pending promise; writes queue up and the sink's write is
// called only after start resolves.
let resolveStart;
const ws = new WritableStream(source('sink', {
  start() { return new Promise((r) => { resolveStart = r; }); },
  write(chunk) { log('write', chunk); },
  close() { log('close'); },
}));
const w = ws.getWriter();
watch('w1', w.write('x'));
watch('w2', w.write('y'));
watch('close', w.close());
log('desiredSize', w.desiredSize);
(async () => {
  await delay(1);
  log('resolving');
  resolveStart();
})();
