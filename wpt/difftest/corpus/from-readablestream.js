// ReadableStream.from(readableStream) uses the stream's async iterator; the source stream is
// locked by the iterator.
const src = new ReadableStream(source('src', {
  start(c) { c.enqueue('p'); c.close(); },
}));
const rs = ReadableStream.from(src);
log('src locked', src.locked);
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
