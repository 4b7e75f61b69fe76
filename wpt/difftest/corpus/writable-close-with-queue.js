// WritableStream: writer.closed, close() and ready ordering when close() is requested with
// writes still queued; closing twice rejects; write after close rejects.
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); return Promise.resolve(); },
  close() { log('close'); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('close', w.close());
watch('close2', w.close());
watch('w3', w.write(3));
watch('closed', w.closed);
watch('ready', w.ready);
