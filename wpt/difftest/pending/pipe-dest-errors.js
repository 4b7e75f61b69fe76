// PENDING: pipeTo where the sink's second write throws: the next read (src.pull) is issued one microtask earlier in ours; everything after shifts by one.
//   first diff: ref `1.4 >src.pull ReadableStreamDefaultController`,
//   ours `1.3 >src.pull ReadableStreamDefaultController`.
// Reading: in-parallel pipe detail, same cause as pipe-basic.
//
// pipeTo: the sink's write throws: the source is cancelled with the error; pipe rejects.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); if (n > 5) c.close(); },
  cancel(reason) { log('cancel', reason); },
}));
const ws = new WritableStream(source('sink', {
  write(chunk) { if (chunk === 2) throw new Error('sink'); },
}));
watch('pipe', rs.pipeTo(ws));
