// tee() of a byte stream: branch A alternates between a default reader and a BYOB reader
// (the tee switches the source reader between modes); branch B reads by default.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const req = c.byobRequest;
    log('pull', n, req ? 'byob ' + req.view.byteLength : 'default');
    if (req) { req.view[0] = n; req.respond(1); } else c.enqueue(new Uint8Array([n]));
    if (n === 4) c.close();
  },
}));
const [a, b] = rs.tee();
(async () => {
  let ra = a.getReader();
  log('a1', await ra.read());
  ra.releaseLock();
  ra = a.getReader({ mode: 'byob' });
  log('a2', await ra.read(new Uint8Array(3)));
  ra.releaseLock();
  ra = a.getReader();
  log('a3', await ra.read());
  ra.releaseLock();
  ra = a.getReader({ mode: 'byob' });
  log('a4', await ra.read(new Uint8Array(2)));
  log('a5', await ra.read(new Uint8Array(2)));
  const rb = b.getReader();
  for (let i = 0; i < 5; i++) log('b', await rb.read());
})();
