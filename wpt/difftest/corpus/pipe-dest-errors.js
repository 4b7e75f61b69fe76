// pipeTo: the sink's write throws: the source is cancelled with the error; pipe rejects.
let n = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { n++; c.enqueue(n); if (n > 5) c.close(); },
  cancel(reason) { log('cancel', reason); },
}));
const ws = new WritableStream(source('sink', {
  write(chunk) { if (chunk === 2) throw new Error('sink'); },
}));
watch('pipe', rs.pipeTo(ws));
