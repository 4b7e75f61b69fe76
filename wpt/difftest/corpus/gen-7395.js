// difftest campaign seed 7395 (ref vs ours), shrunk. First differing line 5:
// ref "(end)" / ours "2.6 o1 err Error(reason7)"
// Finding: TransformStream: writable.abort() while start() is pending, then start's controller.error(): the reference calls the transformer's cancel algorithm after error() cleared it (TypeError inside a reaction) so abort() never settles; ours rejects it. Same root as gen-1698 (spec calls a cleared algorithm).
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
  op('o0', () => { ts[0] = new TransformStream(source('ts0', { start(c) { tc[0] = c; return body('ts0.start', 1, 'timer', 1, () => { op('ts0.start.a0', () => c.error(new Error('reason7'))); }); }, transform(chunk, c) {  return body('ts0.transform', 3, 'sync', 0, () => { }); }, flush(c) {  return body('ts0.flush', 2, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[0]; return body('ts0.cancel', 1, 'sync', 0, () => { }); } }), source('ts0.ws', {  }), source('ts0.rs', {  })); rs[1] = ts[0].readable; ws[0] = ts[0].writable; });
  op('o1', () => ws[0].abort(new Error('reason7')));
})().then(() => log('main done'), (e) => log('main throws', e));
