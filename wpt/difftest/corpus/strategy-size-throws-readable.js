// ReadableStream: size() throws inside enqueue: enqueue rethrows and the stream errors; size
// returning NaN/-1/Infinity throws RangeError and errors the stream.
function run(name, size) {
  let ctrl;
  const rs = new ReadableStream({ start(c) { ctrl = c; } }, { size });
  attempt(name + ' enqueue', () => ctrl.enqueue('x'));
  watch(name + ' closed', rs.getReader().closed);
}
run('throws', () => { throw new Error('sz'); });
run('nan', () => NaN);
run('negative', () => -1);
run('infinity', () => Infinity);
run('string', () => '2');
