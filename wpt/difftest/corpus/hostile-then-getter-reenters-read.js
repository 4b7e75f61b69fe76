// Issue 9 repro 4 (shallow): an Object.prototype `then` getter that re-enters reader.read()
// while a read result is being resolved; every read settles and no chunk is lost.
const rs = new ReadableStream({
  start(c) { for (let i = 0; i < 6; i++) c.enqueue('c' + i); c.close(); },
});
const reader = rs.getReader();
let depth = 0;
hook(Object.prototype, 'then', {
  get() {
    if (depth < 3) {
      depth++;
      log('then getter, depth', depth);
      watch('inner read ' + depth, reader.read());
    }
    return undefined;
  },
});
watch('outer read', reader.read());
watch('closed', reader.closed);
