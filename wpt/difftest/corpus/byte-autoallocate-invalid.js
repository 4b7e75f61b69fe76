// ReadableByteStream: autoAllocateChunkSize 0 throws TypeError; the option is read via
// traced() to check the order of underlying source property reads.
attempt('zero', () => new ReadableStream(traced('src0', { type: 'bytes', autoAllocateChunkSize: 0 })));
attempt('negative', () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: -1 }));
attempt('on default stream', () => new ReadableStream(traced('src1', { autoAllocateChunkSize: 0 })));
attempt('ok', () => new ReadableStream(traced('src2', { type: 'bytes', autoAllocateChunkSize: 1.5 })));
attempt('bad type', () => new ReadableStream(traced('src3', { type: 'byte' })));
