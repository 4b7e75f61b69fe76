// WritableStream: writer.close() from inside the sink's write(): close waits for the write;
// the sink's close runs after.
let w;
const ws = new WritableStream(source('sink', {
  write(ch) { watch('inner close', w.close()); return thenable('wT', 0); },
  close() { log('sink close'); },
}));
w = ws.getWriter();
watch('w', w.write('a'));
watch('closed', w.closed);
