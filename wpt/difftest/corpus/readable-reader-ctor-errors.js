// Reader constructors: non-stream arguments throw TypeError; closed promise identity is stable
// across accesses; read() on a reader for a closed stream.
attempt('default reader of {}', () => new ReadableStreamDefaultReader({}));
attempt('byob reader of undefined', () => new ReadableStreamBYOBReader());
attempt('writer of readable', () => new WritableStreamDefaultWriter(new ReadableStream()));
const rs = new ReadableStream({ start(c) { c.close(); } });
const r = new ReadableStreamDefaultReader(rs);
log('closed identity', r.closed === r.closed);
watch('read', r.read());
watch('closed', r.closed);
