// difftest campaign seed 14614 (ref vs ours), shrunk. First differing line 12:
// ref "(end)" / ours "1.8 o2 err TypeError"
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
  op('o0', () => { ts[2] = new TransformStream(source('ts2', { start(c) { tc[2] = c; return body('ts2.start', 2, 'micro', 1, () => { op('ts2.start.a0', () => c.terminate()); }); }, transform(chunk, c) {  return body('ts2.transform', 1, 'sync', 0, () => { }); }, flush(c) {  return body('ts2.flush', 3, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[2]; return body('ts2.cancel', 2, 'sync', 0, () => { }); } }), source('ts2.ws', {  }), source('ts2.rs', {  })); rs[1] = ts[2].readable; ws[1] = ts[2].writable; });
  op('o1', () => { ts[1] = new TransformStream(source('ts1', { start(c) { tc[1] = c; return body('ts1.start', 3, 'sync', 0, () => { }); }, transform(chunk, c) {  return body('ts1.transform', 4, 'sync', 0, () => { }); }, flush(c) {  return body('ts1.flush', 2, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[1]; return body('ts1.cancel', 1, 'sync', 0, () => { }); } }), source('ts1.ws', { size(chunk) { return (() => { throw new Error('ts1.ws.size'); })(); } }), source('ts1.rs', {  })); rs[2] = ts[1].readable; ws[2] = ts[1].writable; });
  op('o2', () => rs[1].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false }));
  { const c = tc[2]; op('o3', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); }
  { const c = tc[2]; op('o4', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); }
})().then(() => log('main done'), (e) => log('main throws', e));
