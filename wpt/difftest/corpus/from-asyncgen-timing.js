// ReadableStream.from(async generator): each read settles two reactions after the generator's
// next() promise settles plus the WebIDL "a promise resolved with" adoption (issue 8, deviation 1).
async function* gen() {
  log('gen start');
  yield 'a';
  log('gen after a');
  yield 'b';
  log('gen after b');
}
const rs = ReadableStream.from(gen());
const reader = rs.getReader();
const rd = (n) => reader.read().then((r) => { log(n, r.value, r.done); });
rd('r1');
rd('r2');
rd('r3');
