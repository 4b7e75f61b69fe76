// WritableStream: the sink's write() calls writer.write() re-entrantly: the new chunk is
// queued behind the in-flight one and written after it.
let w;
let n = 0;
const ws = new WritableStream(source('sink', {
  write(ch) {
    n++;
    if (n < 3) watch('inner write ' + n, w.write(ch + 1));
    log('desiredSize', w.desiredSize);
  },
}), { highWaterMark: 5 });
w = ws.getWriter();
watch('w', w.write(10));
