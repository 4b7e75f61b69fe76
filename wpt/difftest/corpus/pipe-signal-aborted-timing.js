// pipeTo with an already-aborted signal: the signal's shutdown action is "getting a promise to
// wait for all" of the abort / cancel actions, and the pipe's promise settles upon that
// promise (one microtask after the last part fulfils or the first rejects; two microtasks
// when the set is empty). Variants: both actions, preventAbort + preventCancel (empty set),
// abort() rejecting, cancel() rejecting, only one action.
function run(name, opts, sinkAbort, srcCancel) {
  const ac = new AbortController();
  ac.abort(name);
  const rs = new ReadableStream(source(name + '.src', { cancel: srcCancel }));
  const ws = new WritableStream(source(name + '.sink', { abort: sinkAbort }));
  opts.signal = ac.signal;
  watch(name + '.pipe', rs.pipeTo(ws, opts));
  log(name + ' returned', rs.locked, ws.locked);
}
run('both', {}, () => {}, () => {});
run('none', { preventAbort: true, preventCancel: true }, () => {}, () => {});
run('abortRejects', {}, () => Promise.reject(new Error('abort failed')), () => {});
run('cancelRejects', {}, () => {}, () => { throw new Error('cancel failed'); });
run('onlyCancel', { preventAbort: true }, () => {}, () => delay(1));
run('onlyAbort', { preventCancel: true }, () => delay(1), () => {});
