// WritableStream.close()/abort() on a locked stream reject with TypeError; getWriter twice
// throws; close on an unlocked stream works.
const ws = new WritableStream(source('sink', { close() { log('close'); } }));
const w = ws.getWriter();
watch('ws.close locked', ws.close());
watch('ws.abort locked', ws.abort());
attempt('getWriter again', () => ws.getWriter());
attempt('new Writer', () => new WritableStreamDefaultWriter(ws));
w.releaseLock();
watch('ws.close', ws.close());
watch('ws.close again', ws.close());
log('locked', ws.locked);
