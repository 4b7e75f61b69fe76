// A native source read by script first (its chunks become Uint8Arrays), then piped to a
// native sink; the rest go as bytes.
const rs = nativeSource('src', [[9, 8], [7], [6, 5], [4]], 2);
const r = rs.getReader();
watch('read', r.read().then((res) => {
  log('got', Array.prototype.join.call(res.value, ','), res.done);
  r.releaseLock();
  return rs.pipeTo(nativeSink('sink', 1));
}));
