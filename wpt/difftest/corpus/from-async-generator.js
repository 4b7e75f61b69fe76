// ReadableStream.from(async generator): reads pull the generator (known deviation area:
// from(asyncIterable) read timing).
async function* gen() {
  log('gen start');
  yield 1;
  await delay(1);
  yield 2;
}
const r = ReadableStream.from(gen()).getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
