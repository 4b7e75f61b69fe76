// ReadableByteStream: the source's cancel rejects: cancel() rejects, queued bytes discarded.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start(c) { c.enqueue(new Uint8Array(3)); },
  cancel(r) { return Promise.reject(new TypeError('nope')); },
}));
const r = rs.getReader();
watch('cancel', r.cancel('x'));
watch('closed', r.closed);
