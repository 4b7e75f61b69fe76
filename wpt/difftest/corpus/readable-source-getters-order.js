// ReadableStream: the underlying source members are read with getters (traced) in
// lexicographic order, even when some getters throw (the first throw stops the read).
attempt('throwing getter', () => new ReadableStream(traced('src', {
  get autoAllocateChunkSize() { log('aacs getter'); return undefined; },
  get cancel() { log('cancel getter'); throw new Error('cancel getter'); },
  get pull() { log('pull getter must not run'); return undefined; },
})));
attempt('non-callable start', () => new ReadableStream({ start: 1 }));
attempt('non-callable pull', () => new ReadableStream({ pull: 'x' }));
attempt('null source', () => new ReadableStream(null));
attempt('primitive source', () => new ReadableStream(1));
attempt('undefined source', () => new ReadableStream(undefined));
