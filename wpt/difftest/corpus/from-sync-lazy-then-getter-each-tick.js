// ReadableStream.from(sync generator): a logging Object.prototype.then getter installed at
// each microtask offset of one pull and removed one tick later: every `then` lookup on the
// iterator result (the wrapper's resolve function, nextPromise's resolve function) that
// falls inside the window runs the getter with the iterator result as its receiver.
function* gen(tag) { yield tag + 1; yield tag + 2; return 'ret'; }
function run(offset) {
  const r = ReadableStream.from(gen('g' + offset)).getReader();
  return (async () => {
    await null; await null; await null; // started
    watch('read1 ' + offset, r.read());
    let k = 0;
    const step = () => {
      if (k++ < offset) { queueMicrotask(step); return; }
      log('install', offset);
      hook(Object.prototype, 'then', {
        get() { log('get then', offset, Object.keys(this).sort(), this.value, this.done); return undefined; },
      });
      queueMicrotask(() => { log('remove', offset); delete Object.prototype.then; });
    };
    queueMicrotask(step);
    watch('read2 ' + offset, r.read());
    watch('read3 ' + offset, r.read());
    await delay(0);
    delete Object.prototype.then;
  })();
}
(async () => {
  for (let offset = 0; offset < 10; offset++) await run(offset);
})();
