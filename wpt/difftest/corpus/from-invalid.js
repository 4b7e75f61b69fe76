// ReadableStream.from with invalid inputs: null, a number, an object without iterator
// methods, an @@asyncIterator that is not callable, an iterator method returning a primitive.
attempt('null', () => ReadableStream.from(null));
attempt('number', () => ReadableStream.from(5));
attempt('plain object', () => ReadableStream.from({}));
attempt('bad asyncIterator', () => ReadableStream.from({ [Symbol.asyncIterator]: 1 }));
attempt('iterator returns primitive', () => ReadableStream.from({ [Symbol.iterator]() { return 1; } }));
attempt('iterator throws', () => ReadableStream.from({ [Symbol.iterator]() { throw new Error('it'); } }));
attempt('string', () => ReadableStream.from('hi'));
