// BYOB: a read with min 4 gets 2 bytes (request view made, respond), the reader is released
// (the read rejects), then enqueue: the descriptor's 2 bytes are cloned into the queue ahead
// of the chunk; a default reader gets both.
let ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { ctrl = c; },
  pull(c) {
    const v = c.byobRequest.view;
    if (v.byteLength === 4) { v.set([1, 2]); c.byobRequest.respond(2); }
  },
}));
const r = rs.getReader({ mode: 'byob' });
const pending = watch('read', r.read(new Uint8Array(4), { min: 4 }));
(async () => {
  await delay(1);
  r.releaseLock();
  await pending.catch(() => {});
  ctrl.enqueue(new Uint8Array([3]));
  const d = rs.getReader();
  const x = await watch('d1', d.read());
  const y = await watch('d2', d.read());
  log('default', Array.from(x.value).join('.'), x.value.buffer.byteLength,
    Array.from(y.value).join('.'));
})();
