// WritableStream: sink start/write/close return hand-written thenables; each then is called
// from a microtask and the stream proceeds after it resolves.
const ws = new WritableStream(source('sink', {
  start() { return thenable('startT', 1); },
  write(ch) { return thenable('writeT' + ch, ch); },
  close() { return thenable('closeT', 0); },
}));
const w = ws.getWriter();
watch('w1', w.write(1));
watch('w2', w.write(2));
watch('close', w.close());
