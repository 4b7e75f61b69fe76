// TransformStream: writable.abort() then controller.terminate() in the same turn (start
// settled): transformer.cancel runs, the readable side closes and abort() resolves.
let tc;
const ts = new TransformStream(source('tr', { start(c) { tc = c; }, cancel(r) { log('cancel', r); } }));
(async () => {
  await delay(1);
  watch('abort', ts.writable.abort('A'));
  tc.terminate();
  watch('read', ts.readable.getReader().read());
})();
