// difftest campaign seed 34677 (full program): an abort listener added before pipeTo(); the pipe's
// abort algorithm must run before the abort event's listeners (DOM signal abort; oracle patch
// pipe-abort-algorithm).
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
  op('o0', () => { rs[0] = new ReadableStream(source('rs0', { start(c) { rc[0] = c; return body('rs0.start', 2, 'sync', 0, () => { }); }, pull(c) {  return body('rs0.pull', 3, 'sync', 0, () => { }); }, cancel(reason) { const c = rc[0]; return body('rs0.cancel', 2, 'sync', 0, () => { }); } }), source('rs0.strategy', {  })); });
  op('o1', () => { ws[2] = new WritableStream(source('ws2', { start(c) { wc[2] = c; return body('ws2.start', 1, 'sync', 0, () => { op('ws2.start.a0', () => c.error(new Error('reason8'))); }); }, write(chunk, c) {  return body('ws2.write', 4, 'sync', 0, () => { }); }, close() { const c = wc[2]; return body('ws2.close', 3, 'sync', 0, () => { }); }, abort(reason) { const c = wc[2]; return body('ws2.abort', 3, 'sync', 0, () => { }); } }), source('ws2.strategy', {  })); });
  op('o2', () => { ac[1] = new AbortController(); ac[1].signal.addEventListener('abort', () => { log('o2 abort event'); { const c = tc[1]; op('o2.l.a0', () => c.enqueue(typeof chunk === 'undefined' ? 'x' : chunk)); } }); });
  op('o3', () => rs[0].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false, signal: ac[1] && ac[1].signal }));
  op('o4', () => ac[1].abort(new Error('reason4')));
})().then(() => log('main done'), (e) => log('main throws', e));
