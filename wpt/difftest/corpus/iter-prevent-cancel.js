// Async iteration with preventCancel: true: break releases the lock without cancelling; the
// options dictionary is traced.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); if (n === 4) c.close(); },
  cancel() { log('cancel must not run'); },
}));
(async () => {
  for await (const chunk of rs.values(traced('opts', { preventCancel: true }))) {
    log('chunk', chunk);
    if (chunk === 1) break;
  }
  log('locked', rs.locked);
  const r = rs.getReader();
  watch('read', r.read());
})();
