// difftest campaign seed 13624 (ref vs ours), shrunk. First differing line 6:
// ref "(end)" / ours "1.7 o2 err TypeError"
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
  op('o0', () => { ts[1] = new TransformStream(source('ts1', { start(c) { tc[1] = c; return body('ts1.start', 3, 'sync', 0, () => { op('ts1.start.a0', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); }); }, transform(chunk, c) {  return body('ts1.transform', 2, 'sync', 0, () => { }); }, flush(c) {  return body('ts1.flush', 1, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[1]; return body('ts1.cancel', 3, 'sync', 0, () => { }); } }), source('ts1.ws', {  }), source('ts1.rs', {  })); rs[1] = ts[1].readable; ws[0] = ts[1].writable; });
  { const c = tc[1]; op('o1', () => c.terminate()); }
  op('o2', () => rs[1].pipeTo(ws[0], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
