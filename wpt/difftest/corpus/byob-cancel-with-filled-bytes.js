// BYOB: cancel while a pull-into has some bytes filled (min not reached): the read resolves
// done with an empty view; the source's cancel gets the reason.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { c.byobRequest.view[0] = 1; c.byobRequest.respond(1); },
  cancel(r) { log('cancel', r); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(4), { min: 4 }));
(async () => { await delay(1); watch('cancel', r.cancel('enough')); })();
