// ReadableStreamDefaultReader: constructor on a locked stream throws; releaseLock twice is a
// no-op; cancel on a released reader rejects; getReader({mode: undefined}).
const rs = new ReadableStream();
const r = rs.getReader();
attempt('second getReader', () => rs.getReader());
attempt('new Reader locked', () => new ReadableStreamDefaultReader(rs));
r.releaseLock();
attempt('releaseLock twice', () => r.releaseLock());
watch('cancel released', r.cancel());
watch('closed released', r.closed);
const r2 = attempt('getReader mode undefined', () => rs.getReader(traced('opts', { mode: undefined })));
attempt('getReader bad mode', () => rs.getReader({ mode: 'bad' }));
log('locked', rs.locked);
