// Async iteration with for await: the stream's chunks arrive in order; the loop ends at
// close; the stream is unlocked afterwards.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); },
  cancel() { log('cancel must not run'); },
}));
(async () => {
  for await (const chunk of rs) log('chunk', chunk);
  log('done, locked', rs.locked);
})();
