// tee(): the source's cancel rejects: both branch cancel promises reject with that error.
const rs = new ReadableStream(source('src', {
  cancel(reason) { throw new Error('nope'); },
}));
const [a, b] = rs.tee();
const rb = b.getReader();
watch('b.closed', rb.closed);
watch('b.cancel', rb.cancel('rb'));
watch('a.cancel', a.cancel('ra'));
