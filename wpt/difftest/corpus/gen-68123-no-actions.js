// gen-68123 variant: preventAbort and preventCancel: the wait for all has no actions (an empty results array, resolved from a queued microtask).
// ref "1.7 o3 get then" / ours "1.9 o5 err Error(reason4)"
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
  op('o0', () => { rs[0] = ReadableStream.from({ [Symbol.iterator]() { let i = 0; return { next() { log('o0 next', i); return { value: 'i' + i, done: i++ >= 2 }; }, return(v) { log('o0 return', v); return { done: true }; } }; } }); });
  op('o1', () => { ws[0] = new WritableStream(source('ws0', { start(c) { wc[0] = c; return body('ws0.start', 1, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws0.write', 1, 'sync', 0, () => { }); }, close() { const c = wc[0]; return body('ws0.close', 2, 'sync', 0, () => { }); }, abort(reason) { const c = wc[0]; return body('ws0.abort', 2, 'sync', 0, () => { }); } }), source('ws0.strategy', {  })); });
  op('o2', () => { ac[0] = new AbortController(); });
  hook(Object.prototype, 'then', { get() { log('o3 get then'); return undefined; } });
  op('o4', () => ac[0].abort(new Error('reason4')));
  op('o5', () => rs[0].pipeTo(ws[0], { preventClose: false, preventAbort: true, preventCancel: true, signal: ac[0] && ac[0].signal }));
})().then(() => log('main done'), (e) => log('main throws', e));
