// Fast-path probe: a synchronous pull serving five reads queued in one turn (hwm 0); each
// pull sees the desiredSize after the previous read was fulfilled.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; log('pull', n, c.desiredSize); c.enqueue(n); if (n === 5) c.close(); },
}), { highWaterMark: 0 });
const r = rs.getReader();
for (let i = 0; i < 6; i++) watch('read' + i, r.read());
watch('closed', r.closed);
