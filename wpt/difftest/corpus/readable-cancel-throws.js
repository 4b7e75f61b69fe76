// ReadableStream: the source's cancel throws / rejects; stream.cancel rejects with that error
// but the stream is closed nonetheless.
const rs1 = new ReadableStream(source('s1', { cancel() { throw new Error('c1'); } }));
watch('cancel1', rs1.cancel());
const r1 = rs1.getReader();
watch('closed1', r1.closed);
const rs2 = new ReadableStream(source('s2', { cancel() { return Promise.reject(new Error('c2')); } }));
const r2 = rs2.getReader();
watch('closed2', r2.closed);
watch('cancel2', r2.cancel());
