// WritableStream: writer.abort() called from inside the sink's write(): the abort waits for
// the in-flight write; the sink's abort runs after it.
let w;
const ws = new WritableStream(source('sink', {
  write(ch) {
    watch('inner abort', w.abort('from write'));
    log('after inner abort');
    return delay(1);
  },
  abort(r) { log('sink abort', r); },
}));
w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('closed', w.closed);
