// difftest campaign seed 22911 (ref vs ours), shrunk. First differing line 5:
// ref "1.1 o2 err TypeError" / ours "1.1 main done"
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
  op('o0', () => { ts[2] = new TransformStream(source('ts2', { start(c) { tc[2] = c; return body('ts2.start', 3, 'sync', 0, () => { op('ts2.start.a0', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); }); }, transform(chunk, c) {  return body('ts2.transform', 3, 'sync', 0, () => { }); }, flush(c) {  return body('ts2.flush', 4, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[2]; return body('ts2.cancel', 4, 'sync', 0, () => { }); } }), source('ts2.ws', {  }), source('ts2.rs', {  })); rs[1] = ts[2].readable; ws[2] = ts[2].writable; });
  { const c = tc[2]; op('o1', () => c.terminate()); }
  op('o2', () => rs[1].cancel(new Error('reason2')));
})().then(() => log('main done'), (e) => log('main throws', e));
