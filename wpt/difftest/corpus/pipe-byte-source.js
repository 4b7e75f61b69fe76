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
