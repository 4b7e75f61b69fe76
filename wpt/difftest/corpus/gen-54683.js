// difftest campaign seed 54683 (ref vs ours), shrunk. First differing line 13:
// ref "2.7 o4 ok undefined" / ours "2.5 >rs1.pull ReadableStreamDefaultController"
// Fixed by the oracle patch spec-hole-transform-cleared-transform (same cause as gen-29546).
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
  op('o0', () => { rs[1] = new ReadableStream(source('rs1', { start(c) { rc[1] = c; return body('rs1.start', 3, 'sync', 0, () => { op('rs1.start.a0', () => c.enqueue('c4')); }); }, pull(c) {  return body('rs1.pull', 2, 'sync', 0, () => { }); }, cancel(reason) { const c = rc[1]; return body('rs1.cancel', 3, 'sync', 0, () => { }); } }), source('rs1.strategy', {  })); });
  op('o1', () => { ts[0] = new TransformStream(source('ts0', { start(c) { tc[0] = c; return body('ts0.start', 4, 'sync', 0, () => { }); }, transform(chunk, c) {  return body('ts0.transform', 4, 'sync', 0, () => { }); }, flush(c) {  return body('ts0.flush', 2, 'sync', 0, () => { }); }, cancel(reason) { const c = tc[0]; return body('ts0.cancel', 1, 'micro', 3, () => { }); } }), source('ts0.ws', {  }), source('ts0.rs', { highWaterMark: 3 })); rs[0] = ts[0].readable; ws[2] = ts[0].writable; });
  await delay(3); log('o2 awaited');
  op('o3', () => rs[1].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false }));
  op('o4', () => rs[0].cancel(new Error('reason4')));
})().then(() => log('main done'), (e) => log('main throws', e));
