// ReadableStream.from: a sync iterator whose next() throws errors the stream with that error.
let calls = 0;
const it = {
  [Symbol.iterator]() {
    return {
      next() {
        calls++;
        if (calls === 2) throw new Error('next failed');
        return { value: calls, done: false };
      },
    };
  },
};
const r = ReadableStream.from(it).getReader();
watch('read1', r.read());
watch('read2', r.read());
watch('closed', r.closed);
