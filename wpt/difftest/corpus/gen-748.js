// difftest campaign seed 748 (ref vs ours), shrunk. First differing line 9:
// ref "1.3 >rs1.pull ReadableStreamDefaultController" / ours "1.3 main done"
// Reading (branch deviations): same as gen-306: the writable's start() rejects while the
// pipe's ready reaction is queued; the patched oracle reads anyway (pull at 1.3), ours does not
// read once WritableStreamDefaultWriterGetDesiredSize is null (the spec: "must not read from
// reader"). Ours is right.
//
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
  op('o0', () => { rs[1] = new ReadableStream(source('rs1', { start(c) { rc[1] = c; return body('rs1.start', 1, 'sync', 0, () => { }); }, pull(c) {  return body('rs1.pull', 3, 'sync', 0, () => { }); }, cancel(reason) { const c = rc[1]; return body('rs1.cancel', 3, 'sync', 0, () => { }); } }), source('rs1.strategy', {  })); });
  op('o1', () => { ws[2] = new WritableStream(source('ws2', { start(c) { wc[2] = c; return body('ws2.start', 1, 'reject', 0, () => { }); }, write(chunk, c) {  return body('ws2.write', 3, 'sync', 0, () => { }); }, close() { const c = wc[2]; return body('ws2.close', 2, 'sync', 0, () => { }); }, abort(reason) { const c = wc[2]; return body('ws2.abort', 1, 'sync', 0, () => { }); } }), source('ws2.strategy', {  })); });
  await null; await null; log('o2 awaited');
  op('o3', () => rs[1].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
