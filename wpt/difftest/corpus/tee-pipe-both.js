// tee() branches piped into two sinks (one slow): both receive all chunks; the source is
// read at the pace of the faster branch.
let ctrl;
const rs = new ReadableStream(source('src', { start(c) { ctrl = c; } }));
const [a, b] = rs.tee();
const sink = (name, ms) => new WritableStream(source(name, {
  write(ch) { return ms ? delay(ms) : undefined; },
  close() {},
}));
watch('pipeA', a.pipeTo(sink('fast', 0)));
watch('pipeB', b.pipeTo(sink('slow', 2)));
(async () => {
  for (let i = 0; i < 3; i++) { await delay(1); ctrl.enqueue(i); }
  ctrl.close();
})();
