// WritableStream: the abort() promise when the sink's abort throws / rejects / returns a
// thenable.
function run(name, abort) {
  const ws = new WritableStream(source(name, { abort }));
  const w = ws.getWriter();
  watch(name + ' abort', w.abort('r'));
  watch(name + ' closed', w.closed);
}
run('throws', () => { throw new Error('t'); });
run('rejects', () => Promise.reject(new Error('r')));
run('thenable', () => thenable('abortThenable', 'x'));
