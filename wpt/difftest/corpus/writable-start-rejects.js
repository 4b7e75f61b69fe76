// WritableStream: start() rejects; queued writes reject with that error; the writer's closed
// and ready reject; abort afterwards resolves.
const ws = new WritableStream(source('sink', {
  start() { return delay(1).then(() => { throw new Error('start'); }); },
  write() { log('write must not run'); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('closed', w.closed);
watch('ready', w.ready);
(async () => {
  await delay(5);
  watch('abort', w.abort('later'));
  log('desiredSize', w.desiredSize);
})();
