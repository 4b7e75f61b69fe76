// ReadableByteStream: async start; a BYOB read issued before start settles waits for start,
// then pull receives the request.
let finish;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  start() { return new Promise((r) => { finish = r; }); },
  pull(c) { c.byobRequest.view[0] = 4; c.byobRequest.respond(1); c.close(); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(2)));
watch('read2', r.read(new Uint8Array(2)));
(async () => { await delay(1); log('start resolves'); finish(); })();
