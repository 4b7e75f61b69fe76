// Issue 9 repro 1: BYOB read() options whose `min` getter (or valueOf under EnforceRange)
// throws from a nested frame; the caller's frame must stay intact (g's arguments) and the
// promise must reject with the thrown error, in both implementations.
function fail() { throw new Error('x'); }
function g(a, b, p, d) { watch('g.p', p); return [a, b, typeof p, d].join(','); }
const r = new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' });
log('getter', g(1, 2, r.read(new Uint8Array(4), { get min() { fail(); } }), 'd'));
log('valueOf', g(1, 2, r.read(new Uint8Array(4), { min: { valueOf() { fail(); } } }), 'd'));
for (let i = 0; i < 200; i++) {
  try { r.read(new Uint8Array(4), { get min() { fail(); } }).catch(() => {}); } catch {}
}
log('loop', g(3, 4, r.read(new Uint8Array(4), traced('opts', { min: 5 })), 'e'));
r.cancel('done').then((v) => log('cancelled', v));
