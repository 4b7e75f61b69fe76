// As iter-pull-sync-enqueue-thenable-default.js, with a byte source.
hook(Object.prototype, 'then', { get() { log('get then'); return undefined; } });
const rs = new ReadableStream(source('rs', {
  type: 'bytes',
  pull(c) { c.enqueue(new Uint8Array([1, 2])); return thenable('pull.then', undefined); },
}));
(async () => {
  await delay(0);
  const it = rs.values();
  watch('next0', it.next());
  watch('next1', it.next());
  log('sync end');
})();
