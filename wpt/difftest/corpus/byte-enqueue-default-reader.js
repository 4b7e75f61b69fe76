// ReadableByteStream: enqueue() from start with a default reader; chunks are transferred
// (the original buffer detaches) and reads deliver Uint8Array views.
const buf = new Uint8Array([1, 2, 3, 4]);
let ctrl;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) {
    ctrl = c;
    log('byobRequest', c.byobRequest, 'desiredSize', c.desiredSize);
    c.enqueue(buf);
    log('original after enqueue', buf);
    c.enqueue(new Uint8Array([5]));
    log('desiredSize', c.desiredSize);
  },
  pull(c) { log('pull', c.desiredSize); },
}));
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
(async () => { await delay(1); ctrl.close(); })();
