// ReadableStream.from(array): chunks in order, then done; the array is iterated lazily via
// its iterator (an element changed after from() is seen).
const arr = [1, 2, 3];
const rs = ReadableStream.from(arr);
arr[2] = 'changed';
const r = rs.getReader();
watch('closed', r.closed);
watch('read1', r.read());
watch('read2', r.read());
watch('read3', r.read());
watch('read4', r.read());
