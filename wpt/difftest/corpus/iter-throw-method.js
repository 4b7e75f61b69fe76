// Async iterator from values(): it has no throw() method; for-await with a throw inside and
// a cancel that rejects: the loop's exception wins.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); },
  cancel() { return Promise.reject(new Error('cancel rejected')); },
}));
const it = rs.values();
log('has throw', typeof it.throw);
(async () => {
  try {
    for await (const x of { [Symbol.asyncIterator]: () => it }) {
      log('x', x);
      throw new Error('loop');
    }
  } catch (e) {
    log('caught', e);
  }
})();
