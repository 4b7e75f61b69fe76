// WritableStream: writer.write() twice then close(); the sink's write calls are serialised;
// ready/desiredSize are logged before and after.
const ws = new WritableStream(source('sink', {
  start(c) { log('start', c.signal.aborted); },
  write(chunk, c) { log('write', chunk); },
  close() { log('close'); },
  abort() { log('abort must not run'); },
}));
const w = ws.getWriter();
log('desiredSize', w.desiredSize);
watch('ready', w.ready);
watch('closed', w.closed);
watch('write1', w.write('a'));
log('desiredSize', w.desiredSize);
watch('write2', w.write('b'));
watch('close', w.close());
log('desiredSize after close', w.desiredSize);
