// WritableStream: the sink's close rejects; close() and closed reject; the stream is errored.
const ws = new WritableStream(source('sink', {
  write(c) { log('write', c); },
  close() { return Promise.reject(new Error('closefail')); },
}));
const w = ws.getWriter();
watch('w', w.write('a'));
watch('close', w.close());
watch('closed', w.closed);
watch('ready', w.ready);
(async () => { await delay(1); watch('write after', w.write('b')); })();
