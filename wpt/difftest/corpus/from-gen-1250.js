// difftest campaign seed 1250, shrunk: ReadableStream.from(async generator) + tee() (from() timing, spec-exact with the from-webidl-exact oracle patch).
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
  op('o0', () => { rs[1] = ReadableStream.from((async function* () { try { for (let i = 0; i < 3; i++) { await null; log('o0 agen', i); yield 'g' + i; } } finally { log('o0 agen finally'); } })()); });
  op('o1', () => { const t = rs[1].tee(); rs[0] = t[0]; rs[1] = t[1]; });
  op('o2', () => { const t = rs[1].tee(); rs[2] = t[0]; rs[1] = t[1]; });
})().then(() => log('main done'), (e) => log('main throws', e));
