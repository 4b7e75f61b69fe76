// ReadableStream: start() returns a hand-written thenable; the thenable's then is called
// from a microtask and pull waits for it.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); return thenable('startThenable', 'ignored'); },
  pull(c) { log('pull desiredSize', c.desiredSize); c.enqueue(2); c.close(); },
}), { highWaterMark: 2 });
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
