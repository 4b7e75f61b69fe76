// difftest campaign seed 20152 (ref vs ours), shrunk. First differing line 9:
// ref "(end)" / ours "1.11 o1 err TypeError"
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
  op('o0', () => { ts[0] = new TransformStream(source('ts0', { start(c) { tc[0] = c; return body('ts0.start', 1, 'sync', 0, () => { op('ts0.start.a0', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); }); }, transform(chunk, c) {  return body('ts0.transform', 3, 'sync', 0, () => { op('ts0.transform.a0', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); op('ts0.transform.a1', () => c.terminate()); }); }, flush(c) {  return body('ts0.flush', 1, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[0]; return body('ts0.cancel', 3, 'sync', 0, () => { }); } }), source('ts0.ws', {  }), source('ts0.rs', { highWaterMark: 1 })); rs[2] = ts[0].readable; ws[0] = ts[0].writable; });
  op('o1', () => rs[2].pipeTo(ws[0], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
