// ReadableStream.from(async generator) cancelled after the first read: return() and the cancel
// promise's timing (WebIDL "close an async iterator"; issue 8, deviation 1).
async function* gen() {
  try { log('gen start'); yield 'a'; log('gen after a'); yield 'b'; }
  finally { log('gen finally'); }
}
const rs = ReadableStream.from(gen());
const reader = rs.getReader();
reader.read().then((r) => {
  log('r1', r.value, r.done);
  watch('cancel', reader.cancel('why'));
  log('cancel returned');
});
