// tee() of a byte stream: cancelling both branches cancels the source with both reasons; a
// pending BYOB read on a branch resolves done.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { log('pull', c.byobRequest && c.byobRequest.view); },
  cancel(reason) { log('reasons', reason); },
}));
const [a, b] = rs.tee();
const ra = a.getReader({ mode: 'byob' });
watch('a1', ra.read(new Uint8Array(2)));
(async () => {
  await delay(1);
  watch('a.cancel', ra.cancel('x'));
  watch('b.cancel', b.cancel('y'));
})();
