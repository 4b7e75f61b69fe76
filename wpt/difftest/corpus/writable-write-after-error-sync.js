// WritableStream: controller.error() inside write(): the in-flight write still fulfils (its
// result is ignored), the stream is errored and later writes, close and closed reject.
const ws = new WritableStream(source('sink', {
  write(chunk, c) { c.error(new Error('inside')); return 'ignored'; },
  close() { log('close must not run'); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('closed', w.closed);
watch('close', w.close());
