// Aborting a native-to-native pipe mid-way: the abort reaches both ends in spec order.
const rs = nativeSource('src', [[1], [2], [3], [4], [5], [6]], 1);
const ws = nativeSink('sink', 1);
const ac = new AbortController();
watch('pipe', rs.pipeTo(ws, { signal: ac.signal }));
Promise.resolve().then(() => Promise.resolve()).then(() => {
  log('abort');
  ac.abort('why');
});
