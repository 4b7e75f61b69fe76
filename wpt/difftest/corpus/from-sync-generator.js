// ReadableStream.from(sync generator): each read resumes the generator once; promise values
// yielded are awaited before being enqueued.
function* gen() {
  log('gen start');
  yield 'a';
  log('gen after a');
  yield Promise.resolve('b');
  log('gen after b');
}
const rs = ReadableStream.from(gen());
log('created');
const r = rs.getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
