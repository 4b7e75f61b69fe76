// difftest campaign seed 202756 (ref vs ours), shrunk. First differing line 7:
// ref "(end)" / ours "1.5 o1 err RangeError"
// Finding: TransformStream: writable.abort() while start() is pending, then controller.enqueue() whose readable size() returns NaN (errors the stream): abort() never settles in the reference (cancel algorithm called after being cleared: streams.bs TransformStreamDefaultSinkAbortAlgorithm step 4 performs [[cancelAlgorithm]], which TransformStreamDefaultControllerClearAlgorithms may already have cleared); ours rejects with RangeError. Same root as gen-1698, gen-7395.
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
  op('o0', () => { ts[1] = new TransformStream(source('ts1', { start(c) { tc[1] = c; return body('ts1.start', 2, 'sync', 0, () => { }); }, transform(chunk, c) {  return body('ts1.transform', 2, 'sync', 0, () => { }); }, flush(c) {  return body('ts1.flush', 1, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[1]; return body('ts1.cancel', 3, 'sync', 0, () => { }); } }), source('ts1.ws', {  }), source('ts1.rs', { size(chunk) { return NaN; } })); rs[1] = ts[1].readable; ws[1] = ts[1].writable; });
  op('o1', () => ws[1].abort(new Error('reason5')));
  { const c = tc[1]; op('o2', () => c.enqueue(new Uint8Array([145, 152, 159]))); }
})().then(() => log('main done'), (e) => log('main throws', e));
