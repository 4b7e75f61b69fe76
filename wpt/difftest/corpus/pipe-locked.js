// pipeTo with a locked source or destination rejects with TypeError without touching either;
// pipeThrough with a locked source throws.
const rs = new ReadableStream();
const ws = new WritableStream();
const r = rs.getReader();
watch('source locked', rs.pipeTo(ws));
r.releaseLock();
const w = ws.getWriter();
watch('dest locked', rs.pipeTo(ws));
log('rs locked', rs.locked);
const ts = new TransformStream();
ts.writable.getWriter();
attempt('pipeThrough dest locked', () => rs.pipeThrough(ts));
rs.getReader();
attempt('pipeThrough src locked', () => rs.pipeThrough(new TransformStream()));
