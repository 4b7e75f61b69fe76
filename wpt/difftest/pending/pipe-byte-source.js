// PENDING: pipeTo from a byte source: the second pull (next read) is issued one microtask earlier in ours.
//   first diff: ref `1.4 >src.pull ReadableByteStreamController`,
//   ours `1.3 >src.pull ReadableByteStreamController`.
// Reading: in-parallel pipe detail, same cause as pipe-basic (ours differs from both the patched
// and the unpatched reference). Spec text does not decide it.
//
// pipeTo from a byte stream source into a sink: chunks arrive as Uint8Arrays.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    c.enqueue(new Uint8Array([n]));
    if (n === 3) c.close();
  },
}));
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); },
  close() { log('close'); },
}));
watch('pipe', rs.pipeTo(ws));
