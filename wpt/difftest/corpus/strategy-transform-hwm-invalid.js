// TransformStream with invalid strategies: writable hwm NaN / readable hwm -1 throw
// RangeError before the transformer's start is called.
attempt('writable nan', () => new TransformStream(source('t1', { start() { log('start must not run'); } }), { highWaterMark: NaN }));
attempt('readable negative', () => new TransformStream(source('t2', { start() { log('start must not run'); } }), undefined, { highWaterMark: -1 }));
attempt('size throws later', () => {
  const ts = new TransformStream({}, { size() { throw new Error('wsize'); } });
  const w = ts.writable.getWriter();
  watch('write', w.write('x'));
  watch('closed', w.closed);
  return ts;
});
