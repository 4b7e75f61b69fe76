// pipeTo: pull() enqueues into the pipe's pending read and then errors the source: the chunk
// is written, then the destination is aborted with the error.
const rs = new ReadableStream(source('src', {
  pull(c) { c.enqueue('x'); c.error(new Error('src err')); },
}), { highWaterMark: 0 });
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); return delay(1); },
  abort(r) { log('abort', r); },
}));
watch('pipe', rs.pipeTo(ws));
