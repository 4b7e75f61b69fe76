// ReadableStream.from(array): the array changed while the stream reads it (the array
// iterator's next() runs at each pull and sees every change): an element replaced by a
// logging getter, a hole reaching an Array.prototype getter, the length cut and extended,
// an element getter that throws.
const a = [0, 1];
a[41] = 41;
a.length = 50;
for (let i = 43; i < 50; i++) a[i] = i;
// a[2..40] and a[42] are holes: read as undefined from Array.prototype (nothing there).
const r = ReadableStream.from(a).getReader();
(async () => {
  await null; await null; await null; // started: read() pulls element 0
  watch('read0', r.read());
  Object.defineProperty(a, 1, { get() { log('get a[1]'); return 'getter 1'; }, configurable: true });
  watch('read1', r.read());
  watch('read2', r.read());
  await delay(0);
  for (let i = 3; i < 41; i++) await r.read();
  log('at 41');
  hook(Array.prototype, '42', { get() { log('get Array.prototype[42]', this === a); return 'proto 42'; } });
  watch('read41', r.read());
  watch('read42', r.read());
  await delay(0);
  delete Array.prototype[42];
  a.length = 45;
  watch('read43', r.read());
  watch('read44', r.read());
  await delay(0);
  a.push('pushed 45', 'pushed 46');
  Object.defineProperty(a, 46, { get() { log('get a[46] throws'); throw new Error('element 46'); } });
  watch('read45', r.read());
  watch('read46', r.read());
  watch('closed', r.closed);
})();
