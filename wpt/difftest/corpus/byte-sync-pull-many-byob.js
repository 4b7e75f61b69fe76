// Fast-path probe: synchronous byte pull responding to four BYOB reads queued in one turn.
let n = 0;
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull(c) { n++; const v = c.byobRequest.view; v[0] = n; c.byobRequest.respond(1); if (n === 4) c.close(); },
}));
const r = rs.getReader({ mode: 'byob' });
for (let i = 0; i < 4; i++) watch('read' + i, r.read(new Uint8Array(2)));
watch('closed', r.closed);
