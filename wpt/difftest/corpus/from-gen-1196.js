// difftest campaign seed 1196, shrunk: pipeTo from ReadableStream.from(iterable) (from() timing, spec-exact with the from-webidl-exact oracle patch).
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
  op('o0', () => { ws[1] = new WritableStream(source('ws1', { start(c) { wc[1] = c; return body('ws1.start', 1, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws1.write', 1, 'sync', 0, () => { }); }, close() { const c = wc[1]; return body('ws1.close', 3, 'sync', 0, () => { }); }, abort(reason) { const c = wc[1]; return body('ws1.abort', 2, 'sync', 0, () => { }); } }), source('ws1.strategy', {  })); });
  op('o1', () => { rs[0] = ReadableStream.from(['f0', 'f1', 'f2']); });
  op('o2', () => rs[0].pipeTo(ws[1], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
