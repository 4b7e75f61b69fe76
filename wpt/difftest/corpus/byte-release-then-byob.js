// ReadableByteStream: default reader reads bytes queued by start, releases; a BYOB reader
// reads the remaining bytes.
const rs = new ReadableStream({
  type: 'bytes',
  start(c) { c.enqueue(new Uint8Array([1, 2])); c.enqueue(new Uint8Array([3, 4, 5])); c.close(); },
});
const r1 = rs.getReader();
watch('r1', r1.read());
r1.releaseLock();
const r2 = rs.getReader({ mode: 'byob' });
watch('r2a', r2.read(new Uint8Array(2)));
watch('r2b', r2.read(new Uint8Array(2)));
watch('r2c', r2.read(new Uint8Array(2)));
