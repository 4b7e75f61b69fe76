// ReadableStream.from: a throwing @@asyncIterator getter and a throwing next getter on the
// iterator propagate synchronously from from().
attempt('asyncIterator getter', () => ReadableStream.from({ get [Symbol.asyncIterator]() { throw new Error('g1'); } }));
attempt('next getter', () => ReadableStream.from({ [Symbol.iterator]() { return { get next() { throw new Error('g2'); } }; } }));
attempt('iterator getter', () => ReadableStream.from({ get [Symbol.iterator]() { throw new Error('g3'); } }));
