// PENDING: pipeTo of two already-queued chunks: the second write, close and settlement come one (then two) microtasks earlier in ours than in the patched oracle.
//   first diff: ref `1.6 >sink.write 2 WritableStreamDefaultController`,
//   ours `1.5 >sink.write 2 WritableStreamDefaultController`.
// Reading: in-parallel detail (spec leaves pipe reads/writes in parallel). Ours equals the UNPATCHED
// reference except that its first write is one microtask later; the pipe-write-deferred patch
// defers every write (also chunks read synchronously from the queue), ours only delays each
// write one microtask after its read and issues the next read earlier. Not a spec violation on
// either side; decide which model the tool should pin.
//
// pipeTo: all chunks from a start-enqueued closed source are written, then the sink closes;
// the pipe promise resolves after close.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); c.close(); },
}));
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); },
  close() { log('close'); },
}));
watch('pipe', rs.pipeTo(ws));
log('locked', rs.locked, ws.locked);
