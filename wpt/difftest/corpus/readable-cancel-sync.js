// ReadableStream: cancel() on a stream with queued chunks calls the source's cancel with the
// reason, discards the queue, and closes the reader.
const rs = new ReadableStream(source('src', {
  start(c) { c.enqueue(1); c.enqueue(2); },
  cancel(reason) { log('reason', reason); return 'ignored'; },
}));
const r = rs.getReader();
watch('closed', r.closed);
watch('read1', r.read());
watch('cancel', r.cancel('why'));
watch('read2', r.read());
