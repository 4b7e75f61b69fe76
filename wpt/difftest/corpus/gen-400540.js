// difftest campaign seed 400540 (ref vs ours), shrunk. First differing line 9:
// ref "1.2 >rs2.pull.then.then" / ours "1.2 o0 get then"
// Finding (fixed): an async iterator next() whose read runs a byte source's pull() synchronously; pull() enqueues into the pending read and returns a thenable. WebIDL's nextSteps reacts to the promise of 'get the next iteration result' only after ReadableStreamDefaultReaderRead returns, so the NewPromiseResolveThenableJob for pull's result (queued inside ReadableByteStreamControllerCallPullIfNeeded) runs before the iterator result resolution reads `then`. Ours used to queue the reaction from the read request's chunk steps. Variants: iter-pull-sync-*.js.
const rs = [], rd = [], ws = [], wr = [], ts = [], rc = [], wc = [], tc = [], ac = [];
const calls = {};
function op(name, f) {
  try {
    const r = f();
    if (r instanceof Promise) watch(name, r); else log(name, r);
  } catch (e) {
    log(name + ' throws', e);
  }
}
function body(key, limit, kind, arg, f) {
  calls[key] = (calls[key] || 0) + 1;
  const go = calls[key] <= limit;
  switch (kind) {
    case 'throw': if (go) f(); throw new Error(key);
    case 'reject': if (go) f(); return Promise.reject(new Error(key));
    case 'micro': return (async () => { for (let i = 0; i < arg; i++) await null; if (go) f(); })();
    case 'timer': return delay(arg).then(() => { if (go) f(); });
    case 'thenable': if (go) f(); return thenable(key + '.then', undefined);
    default: if (go) f(); return undefined;
  }
}
(async () => {
  hook(Object.prototype, 'then', { get() { log('o0 get then'); return undefined; } });
  op('o1', () => { rs[2] = new ReadableStream(source('rs2', { type: 'bytes', start(c) { rc[2] = c; return body('rs2.start', 2, 'sync', 0, () => { }); }, pull(c) {  return body('rs2.pull', 1, 'thenable', 0, () => { op('rs2.pull.a0', () => c.enqueue(new Uint8Array([151, 158, 165, 172]))); }); }, cancel(reason) { const c = rc[2]; return body('rs2.cancel', 2, 'sync', 0, () => { }); } }), source('rs2.strategy', {  })); });
  await null; log('o2 awaited');
  op('o3', () => { const it = rs[2].values(); for (let i = 0; i < 3; i++) watch('o3 next' + i, it.next()); watch('o3 return', it.return('r')); });
})().then(() => log('main done'), (e) => log('main throws', e));
