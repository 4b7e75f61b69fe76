// pipeTo, hwm 1 -> 1 with a pulling source and a sync sink: the microtask positions of every
// pull() and write() of the pipe loop (read, write one microtask later, the next step upon the
// read's settlement), checked against the reference implementation's ticks.
let i = 0;
const rs = new ReadableStream(source('src', {
  pull(c) { if (i < 5) c.enqueue(i++); else c.close(); },
}), { highWaterMark: 1 });
const ws = new WritableStream(source('sink', {
  write(ch) { log('write', ch); },
  close() { log('close'); },
}), { highWaterMark: 1 });
watch('pipe', rs.pipeTo(ws));
