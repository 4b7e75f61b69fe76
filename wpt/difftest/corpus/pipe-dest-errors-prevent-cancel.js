// pipeTo with preventCancel: destination error does not cancel the source; the source is
// unlocked afterwards and still readable.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); if (n === 4) c.close(); },
  cancel() { log('cancel must not run'); },
}));
const ws = new WritableStream({ write(chunk) { if (chunk === 1) return Promise.reject(new Error('w')); } });
watch('pipe', rs.pipeTo(ws, { preventCancel: true })).catch(() => {
  log('rs locked', rs.locked);
  const r = rs.getReader();
  watch('read', r.read());
});
