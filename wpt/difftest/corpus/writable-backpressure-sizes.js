// WritableStream with a size() strategy: desiredSize uses chunk sizes; ready flips between
// pending and resolved as writes complete.
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); return delay(1); },
}), source('strategy', { highWaterMark: 5, size(chunk) { return chunk.length; } }));
const w = ws.getWriter();
(async () => {
  for (const s of ['ab', 'cde', 'f', 'ghijkl']) {
    log('before', s, w.desiredSize);
    watch('write ' + s, w.write(s));
    log('after', s, w.desiredSize);
    await w.ready;
    log('ready', w.desiredSize);
  }
  await w.close();
  log('closed');
})();
