// difftest campaign seed 1038, shrunk: pipeTo from a byte source (pipe loop timing).
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
  op('o0', () => { ws[2] = new WritableStream(source('ws2', { start(c) { wc[2] = c; return body('ws2.start', 1, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws2.write', 1, 'sync', 0, () => { }); }, close() { const c = wc[2]; return body('ws2.close', 1, 'sync', 0, () => { }); }, abort(reason) { const c = wc[2]; return body('ws2.abort', 4, 'sync', 0, () => { }); } }), source('ws2.strategy', {  })); });
  op('o1', () => { rs[1] = new ReadableStream(source('rs1', { type: 'bytes', start(c) { rc[1] = c; return body('rs1.start', 4, 'sync', 0, () => { op('rs1.start.a0', () => c.enqueue(new Uint8Array([132, 139, 146, 153]))); }); }, pull(c) {  return body('rs1.pull', 3, 'sync', 0, () => { }); }, cancel(reason) { const c = rc[1]; return body('rs1.cancel', 4, 'sync', 0, () => { }); } }), source('rs1.strategy', {  })); });
  op('o2', () => rs[1].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
