// BYOB reader: read(view, {min}) waits until at least min elements are filled; respond is
// called twice with partial fills; the min option dictionary is traced.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) {
    n++;
    const v = c.byobRequest.view;
    log('pull', n, v);
    v[0] = n;
    v[1] = n;
    c.byobRequest.respond(2);
  },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(6), traced('opts', { min: 5 })));
(async () => { await delay(1); watch('cancel', r.cancel('done')); })();
