// difftest campaign seed 1053, shrunk: pipeTo (pipe loop timing).
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
  op('o0', () => { rs[1] = new ReadableStream(source('rs1', { start(c) { rc[1] = c; return body('rs1.start', 2, 'sync', 0, () => { }); }, pull(c) {  return body('rs1.pull', 2, 'sync', 0, () => { }); }, cancel(reason) { const c = rc[1]; return body('rs1.cancel', 4, 'sync', 0, () => { }); } }), source('rs1.strategy', {  })); });
  op('o1', () => { ws[0] = new WritableStream(source('ws0', { start(c) { wc[0] = c; return body('ws0.start', 1, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws0.write', 4, 'sync', 0, () => { }); }, close() { const c = wc[0]; return body('ws0.close', 3, 'sync', 0, () => { }); }, abort(reason) { const c = wc[0]; return body('ws0.abort', 1, 'sync', 0, () => { }); } }), source('ws0.strategy', {  })); });
  op('o2', () => { rs[1] = new ReadableStream(source('rs1', { start(c) { rc[1] = c; return body('rs1.start', 1, 'sync', 0, () => { }); }, pull(c) {  return body('rs1.pull', 3, 'sync', 0, () => { op('rs1.pull.a0', () => c.enqueue('c7')); }); }, cancel(reason) { const c = rc[1]; return body('rs1.cancel', 3, 'sync', 0, () => { }); } }), source('rs1.strategy', {  })); });
  op('o3', () => rs[1].pipeTo(ws[0], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
