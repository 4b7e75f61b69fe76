// getReader({mode:'byob'}) on a default stream throws TypeError; new ReadableStreamBYOBReader
// on a byte stream works; its read without an argument rejects.
const rs = new ReadableStream();
attempt('byob on default', () => rs.getReader({ mode: 'byob' }));
attempt('ctor on default', () => new ReadableStreamBYOBReader(rs));
const bs = new ReadableStream({ type: 'bytes' });
const r = attempt('ctor on bytes', () => new ReadableStreamBYOBReader(bs));
watch('read no arg', r.read());
watch('read array', r.read([1]));
watch('read arraybuffer', r.read(new ArrayBuffer(2)));
log('locked', bs.locked);
