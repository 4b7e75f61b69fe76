// difftest campaign seed 29546 (ref vs ours), shrunk. First differing line 12:
// ref "1.10 o4 err Error(reason1)" / ours "1.9 o1 return Error(reason1)"
// Cause: not the engine bug. o4 cancels ts2.readable, which clears ts2's algorithms while
// ts2.cancel() is pending; o3's deferred write of 'i0' then reaches
// TransformStreamDefaultControllerPerformTransform with [[transformAlgorithm]] undefined (a
// spec hole). The reference called undefined ("not a callable function", uncaught from the
// pipe's write microtask); oracle patch spec-hole-transform-cleared-transform.
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
  op('o0', () => { ts[1] = new TransformStream(source('ts1', { start(c) { tc[1] = c; return body('ts1.start', 1, 'sync', 0, () => { op('ts1.start.a0', () => c.error(new Error('reason1'))); }); }, transform(chunk, c) {  return body('ts1.transform', 1, 'sync', 0, () => { }); }, flush(c) {  return body('ts1.flush', 1, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[1]; return body('ts1.cancel', 1, 'sync', 0, () => { }); } }), source('ts1.ws', {  }), source('ts1.rs', {  })); rs[0] = ts[1].readable; ws[1] = ts[1].writable; });
  op('o1', () => { rs[1] = ReadableStream.from({ [Symbol.iterator]() { let i = 0; return { next() { log('o1 next', i); return { value: 'i' + i, done: i++ >= 3 }; }, return(v) { log('o1 return', v); return { done: true }; } }; } }); });
  op('o2', () => { ts[2] = new TransformStream(source('ts2', { start(c) { tc[2] = c; return body('ts2.start', 2, 'sync', 0, () => { }); }, transform(chunk, c) {  return body('ts2.transform', 2, 'sync', 0, () => { }); }, flush(c) {  return body('ts2.flush', 3, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[2]; return body('ts2.cancel', 4, 'micro', 2, () => { }); } }), source('ts2.ws', {  }), source('ts2.rs', { highWaterMark: Infinity })); rs[0] = ts[2].readable; ws[2] = ts[2].writable; });
  op('o3', () => rs[1].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false }));
  op('o4', () => rs[0].pipeTo(ws[1], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
