// ReadableStream.from: next() returning a non-object errors the stream with a TypeError.
const it = {
  [Symbol.iterator]() {
    return { next() { log('next'); return 42; } };
  },
};
const rs = ReadableStream.from(it);
const r = rs.getReader();
watch('read', r.read());
watch('closed', r.closed);
