// pipeTo: the source errors after one chunk: the destination is aborted with the error; the
// pipe rejects with it.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); },
  abort(reason) { log('abort', reason); },
  close() { log('close must not run'); },
}));
watch('pipe', rs.pipeTo(ws));
(async () => {
  ctrl.enqueue('a');
  await delay(1);
  ctrl.error(new Error('src'));
})();
