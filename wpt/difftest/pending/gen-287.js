// difftest campaign seed 287 (ref vs ours), shrunk. First differing line 5:
// ref "(end)" / ours "2.6 o1 err Error(reason5)"
// Reading (branch deviations): same spec hole as gen-1698: controller.error() during start
// clears the transform algorithms (TransformStreamErrorWritableAndUnblockWrite), then the pending
// abort's TransformStreamDefaultSinkAbortAlgorithm performs the cleared [[cancelAlgorithm]]; the
// reference throws inside a reaction and abort() never settles, ours settles it.
//
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
  op('o0', () => { ts[2] = new TransformStream(source('ts2', { start(c) { tc[2] = c; return body('ts2.start', 3, 'timer', 3, () => { op('ts2.start.a0', () => c.error(new Error('reason5'))); }); }, transform(chunk, c) {  return body('ts2.transform', 1, 'sync', 0, () => { }); }, flush(c) {  return body('ts2.flush', 2, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[2]; return body('ts2.cancel', 1, 'sync', 0, () => { }); } }), source('ts2.ws', {  }), source('ts2.rs', {  })); rs[0] = ts[2].readable; ws[2] = ts[2].writable; });
  op('o1', () => ws[2].abort(undefined));
})().then(() => log('main done'), (e) => log('main throws', e));
