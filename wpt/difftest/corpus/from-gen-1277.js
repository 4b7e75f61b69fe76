// difftest campaign seed 1277, shrunk: ReadableStream.from(hand-written async iterator returning thenables) (from() timing, spec-exact with the from-webidl-exact oracle patch).
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
  op('o0', () => { rs[2] = ReadableStream.from({ [Symbol.asyncIterator]() { let i = 0; return { next() { log('o0 next', i); return thenable('o0 result', { value: 'i' + i, done: i++ >= 1 }); }, return(v) { log('o0 return', v); return Promise.resolve({ done: true }); } }; } }); });
  op('o1', () => rs[2].cancel(new Error('reason4')));
})().then(() => log('main done'), (e) => log('main throws', e));
