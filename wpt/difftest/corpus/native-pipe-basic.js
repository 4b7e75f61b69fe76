// Native source -> native sink (the bytes path with fast paths on): writes, close and the
// pipe promise keep the spec's ticks against script microtasks.
const rs = nativeSource('src', [[1, 2], [3], [4, 5, 6]], 1);
const ws = nativeSink('sink', 1);
watch('pipe', rs.pipeTo(ws));
log('locked', rs.locked, ws.locked);
Promise.resolve().then(() => log('tick 1')).then(() => log('tick 2')).then(() => log('tick 3'));
