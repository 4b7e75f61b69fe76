// difftest campaign seed 404705 (ref vs ours), shrunk. First differing line 7:
// ref "1.2 o4 err Error(false == true)" / ours "1.2 o4 err TypeError"
// Finding: getWriter(), close() (sync sink close, so the close is in flight), then write(): the reference fails the spec's assertion in WritableStreamDefaultControllerGetChunkSize step 1.1 (state is still "writable" but ProcessClose cleared [[strategySizeAlgorithm]]), write() rejects with AssertionError; ours rejects with TypeError. Spec assertion bug (also behind gen-1356).
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
  op('o0', () => { ws[0] = new WritableStream(source('ws0', { start(c) { wc[0] = c; return body('ws0.start', 3, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws0.write', 1, 'sync', 0, () => { }); }, close() { const c = wc[0]; return body('ws0.close', 1, 'sync', 0, () => { }); }, abort(reason) { const c = wc[0]; return body('ws0.abort', 1, 'sync', 0, () => { }); } }), source('ws0.strategy', {  })); });
  await null; log('o1 awaited');
  op('o2', () => { wr[2] = ws[0].getWriter(); watch('o2 closed', wr[2].closed); });
  op('o3', () => wr[2].close());
  op('o4', () => wr[2].write('c3'));
})().then(() => log('main done'), (e) => log('main throws', e));
