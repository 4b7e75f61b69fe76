// pipeThrough a chain of two transforms into a sink; the final pipeTo resolves after all
// chunks are transformed and flushed.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); c.close(); },
}));
const t1 = new TransformStream(source('t1', {
  transform(ch, c) { c.enqueue(ch * 10); },
  flush(c) { c.enqueue(0); },
}));
const t2 = new TransformStream(source('t2', {
  transform(ch, c) { return delay(1).then(() => c.enqueue(ch + 1)); },
}));
const ws = new WritableStream(source('sink', {
  write(ch) { log('sink got', ch); },
  close() { log('sink close'); },
}));
watch('pipe', rs.pipeThrough(t1).pipeThrough(t2).pipeTo(ws));
