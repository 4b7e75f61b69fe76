// difftest campaign seed 1356 (ref vs ours), shrunk. First differing line 10:
// ref "1.2 o4 err Error(false == true)" / ours "1.2 o4 err TypeError"
// Finding: writer.write() while the writer's close() is in flight (here close() came from a size() re-entered by an earlier write): the reference fails the spec's own assertion in WritableStreamDefaultControllerGetChunkSize step 1.1 ("Assert: stream.[[state]] is not writable"; ProcessClose already cleared [[strategySizeAlgorithm]] while the state is still writable), so write() rejects with AssertionError; ours rejects with TypeError as the next step of WritableStreamDefaultWriterWrite does. Spec assertion bug; same root as gen-404705.
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
  op('o0', () => { ws[1] = new WritableStream(source('ws1', { start(c) { wc[1] = c; return body('ws1.start', 4, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws1.write', 1, 'sync', 0, () => { }); }, close() { const c = wc[1]; return body('ws1.close', 3, 'sync', 0, () => { }); }, abort(reason) { const c = wc[1]; return body('ws1.abort', 4, 'sync', 0, () => { }); } }), source('ws1.strategy', { size(chunk) { op('ws1.strategy.size.a0', () => wr[1].close()); return 1; } })); });
  op('o1', () => { wr[1] = ws[1].getWriter(); watch('o1 closed', wr[1].closed); });
  await null; log('o2 awaited');
  op('o3', () => wr[1].write(new Uint8Array([168, 175])));
  { const c = tc[2]; op('o4', () => wr[1].write(new Uint8Array([152, 159, 166]))); }
})().then(() => log('main done'), (e) => log('main throws', e));
