// A native pipe runs to the end and closes the native sink; a second native source piped
// into the now-closed sink is cancelled with a TypeError and its pipe rejects.
const rs = nativeSource('src', [[1], [2]], 0);
const ws = nativeSink('sink', 1);
watch('pipe', rs.pipeTo(ws, { preventCancel: false }));
delay(0).then(() => {
  log('second pipe');
  return watch('pipe2', nativeSource('src2', [[5]], 0).pipeTo(ws));
});
