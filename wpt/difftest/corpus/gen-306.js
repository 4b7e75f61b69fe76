// difftest campaign seed 306 (ref vs ours), shrunk. First differing line 16:
// ref "2.2 >rs0.pull ReadableStreamDefaultController" / ours "2.5 >rs0.cancel undefined"
// Reading (branch deviations): the patched oracle reads after the destination errored: its
// pipe step reacted to the ready promise while it was still fulfilled, and the reaction reads
// even though c.error() has since made WritableStreamDefaultWriterGetDesiredSize null; the spec's
// pipe constraint says "While WritableStreamDefaultWriterGetDesiredSize(writer) is ≤ 0 or is
// null, the user agent must not read from reader." Ours checks the ready state before reading,
// so the extra pull does not happen. Ours is right; the oracle's order is not one the spec allows.
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
  op('o0', () => { ws[2] = new WritableStream(source('ws2', { start(c) { wc[2] = c; return body('ws2.start', 1, 'sync', 0, () => { }); }, write(chunk, c) {  return body('ws2.write', 4, 'micro', 2, () => { op('ws2.write.a0', () => c.error(undefined)); }); }, close() { const c = wc[2]; return body('ws2.close', 3, 'sync', 0, () => { }); }, abort(reason) { const c = wc[2]; return body('ws2.abort', 3, 'sync', 0, () => { }); } }), source('ws2.strategy', { highWaterMark: Infinity })); });
  op('o1', () => { rs[0] = new ReadableStream(source('rs0', { start(c) { rc[0] = c; return body('rs0.start', 4, 'sync', 0, () => { }); }, pull(c) {  return body('rs0.pull', 3, 'sync', 0, () => { }); }, cancel(reason) { const c = rc[0]; return body('rs0.cancel', 1, 'sync', 0, () => { }); } }), source('rs0.strategy', { highWaterMark: 0 })); });
  op('o2', () => { rs[0] = new ReadableStream(source('rs0', { start(c) { rc[0] = c; return body('rs0.start', 1, 'sync', 0, () => { }); }, pull(c) {  return body('rs0.pull', 1, 'timer', 2, () => { op('rs0.pull.a0', () => c.enqueue(new Uint8Array([96, 103, 110]))); }); }, cancel(reason) { const c = rc[0]; return body('rs0.cancel', 3, 'sync', 0, () => { }); } }), source('rs0.strategy', { highWaterMark: 0 })); });
  op('o3', () => rs[0].pipeTo(ws[2], { preventClose: false, preventAbort: false, preventCancel: false }));
})().then(() => log('main done'), (e) => log('main throws', e));
