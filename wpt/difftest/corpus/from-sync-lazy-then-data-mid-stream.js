// ReadableStream.from(array): a callable Object.prototype.then data property installed at
// each microtask offset of one pull (before the valueWrapper reaction, between it and the
// reaction to the wrapper's promise, before step 4's reaction), then removed by itself: the
// iterator result kept as its parts must be made as an object exactly where a `then` lookup
// first finds the function, and adopted through it.
function run(offset) {
  const r = ReadableStream.from(['a' + offset, 'b' + offset, 'c' + offset]).getReader();
  return (async () => {
    await null; await null; await null; // started
    watch('read1 ' + offset, r.read());
    let k = 0;
    const step = () => {
      if (k++ < offset) { queueMicrotask(step); return; }
      log('install', offset);
      hook(Object.prototype, 'then', {
        value: function (res, rej) {
          log('then called', offset, Object.keys(this).sort(), this.value, this.done);
          delete Object.prototype.then;
          res(this);
        },
      });
    };
    queueMicrotask(step);
    watch('read2 ' + offset, r.read());
    await delay(0);
    delete Object.prototype.then;
    watch('read3 ' + offset, r.read());
    watch('read4 ' + offset, r.read());
    await delay(0);
  })();
}
(async () => {
  for (let offset = 0; offset < 8; offset++) await run(offset);
})();
