// Two pipes through an identity TransformStream (no transform method) into a counting sink:
// the positions of pull(), the sink's write() and the close across both pipe loops and the
// transform's backpressure flips.
let i = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { if (i < 4) c.enqueue(i++); else c.close(); },
}));
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); },
  close() { log('close'); },
}));
watch('pipe', rs.pipeThrough(new TransformStream()).pipeTo(ws));
