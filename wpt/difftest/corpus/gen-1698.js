// difftest campaign seed 1698 (ref vs ours), shrunk. First differing line 5:
// ref "(end)" / ours "1.5 o1 ok undefined"
// Finding: TransformStream: writable.abort() then controller.terminate() before start settles: the reference calls the transformer's cancel algorithm after terminate() cleared it (TypeError inside a reaction) so abort() never settles; ours settles it. Spec calls a cleared algorithm.
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
  op('o0', () => { ts[0] = new TransformStream(source('ts0', { start(c) { tc[0] = c; return body('ts0.start', 4, 'sync', 0, () => { }); }, transform(chunk, c) {  return body('ts0.transform', 3, 'sync', 0, () => { }); }, flush(c) {  return body('ts0.flush', 1, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[0]; return body('ts0.cancel', 1, 'sync', 0, () => { }); } }), source('ts0.ws', {  }), source('ts0.rs', {  })); rs[0] = ts[0].readable; ws[0] = ts[0].writable; });
  op('o1', () => ws[0].abort(new Error('reason4')));
  { const c = tc[0]; op('o2', () => c.terminate()); }
})().then(() => log('main done'), (e) => log('main throws', e));
