// PENDING: from(sync generator): the done read settles one microtask earlier in ours.
//   first diff: ref `1.16 read3 ok {done:true,..}`, ours `1.15 read3 ok {done:true,..}`.
// Reading: same cause as from-array (the reference's yield*-based async-from-sync wrapper
// awaits its return value); probably ours is right per ECMA-262 CreateAsyncFromSyncIterator.
//
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
