// PENDING: ReadableStream.from with a sync iterator whose next getter throws.
//   first diff: ref `1.0 next getter ok ReadableStream`, ours `1.0 next getter throws Error(g2)`.
// Reading: ours is right. WebIDL 'open an async sequence' uses GetIteratorFromMethod, which
// reads iterator.next synchronously, so from() throws. The reference's yield* wrapper reads next
// only when the generator first resumes (same cause as from-sync-iterator-handwritten).
//
// ReadableStream.from: a throwing @@asyncIterator getter and a throwing next getter on the
// iterator propagate synchronously from from().
attempt('asyncIterator getter', () => ReadableStream.from({ get [Symbol.asyncIterator]() { throw new Error('g1'); } }));
attempt('next getter', () => ReadableStream.from({ [Symbol.iterator]() { return { get next() { throw new Error('g2'); } }; } }));
attempt('iterator getter', () => ReadableStream.from({ get [Symbol.iterator]() { throw new Error('g3'); } }));
