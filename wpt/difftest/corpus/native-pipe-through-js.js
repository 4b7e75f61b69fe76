// Native source -> JS TransformStream -> native sink: the transformer sees Uint8Arrays.
const rs = nativeSource('src', [[1, 2], [3, 4]], 1);
const ts = new TransformStream(source('t', {
  transform(chunk, c) {
    log('transform', Array.prototype.join.call(chunk, ','));
    c.enqueue(chunk);
  },
}));
watch('pipe', rs.pipeThrough(ts).pipeTo(nativeSink('sink', 1)));
