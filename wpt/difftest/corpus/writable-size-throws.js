// WritableStream: strategy size() throws: that write rejects and the stream errors; a size
// returning NaN / negative / Infinity errors with RangeError.
function run(name, size) {
  const ws = new WritableStream(source(name, { write(c) { log(name + ' write', c); } }), { size });
  const w = ws.getWriter();
  watch(name + ' w', w.write('x'));
  watch(name + ' closed', w.closed);
}
run('throws', () => { throw new Error('size'); });
run('nan', () => NaN);
run('negative', () => -1);
run('infinity', () => Infinity);
run('zero', () => 0);
