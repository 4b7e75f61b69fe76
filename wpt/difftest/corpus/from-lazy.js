// ReadableStream.from(generator): nothing is pulled until the first read (hwm 0); the
// generator body starts only then.
function* gen() { log('generator started'); yield 1; }
const rs = ReadableStream.from(gen());
log('created, locked', rs.locked);
(async () => {
  await delay(1);
  log('reading');
  watch('read', rs.getReader().read());
})();
