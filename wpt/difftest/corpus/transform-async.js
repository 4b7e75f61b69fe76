// TransformStream: transform() and flush() return promises resolved by timers; writes wait
// for the previous transform.
const ts = new TransformStream(source('tr', {
  transform(chunk, c) {
    return delay(1).then(() => { log('enqueue', chunk); c.enqueue(chunk * 2); });
  },
  flush(c) { return delay(1).then(() => log('flushed')); },
}));
const w = ts.writable.getWriter();
const r = ts.readable.getReader();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('close', w.close());
watch('r1', r.read());
watch('r2', r.read());
watch('r3', r.read());
watch('closed', r.closed);
