// Tee of a native source; one branch piped to a native sink, the other read by script.
const [a, b] = nativeSource('src', [[1], [2, 3]], 1).tee();
watch('pipe', a.pipeTo(nativeSink('sink', 1)));
const r = b.getReader();
const pump = () => r.read().then((res) => {
  log('b', res.done ? 'done' : Array.prototype.join.call(res.value, ','));
  if (!res.done) return pump();
});
watch('b-all', pump());
