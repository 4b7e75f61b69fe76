// PENDING: from(array) (sync iterable): the done read settles one microtask earlier in ours.
//   first diff: ref `1.16 closed ok undefined`, ours `1.15 closed ok undefined`.
// Reading: the reference builds CreateAsyncFromSyncIterator from an async generator running
// `return yield* iterable`; its `return` adds an Await that %AsyncFromSyncIteratorPrototype%.next
// (ECMA-262, used by WebIDL 'open an async sequence') does not. Probably ours is right; this
// is the known from(syncIterable) timing area being worked on elsewhere.
//
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
