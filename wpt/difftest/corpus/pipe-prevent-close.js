// pipeTo with preventClose: the destination is not closed; the writer is released and the
// destination can be written to afterwards.
const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } });
const ws = new WritableStream(source('sink', {
  write(chunk) { log('write', chunk); },
  close() { log('close'); },
}));
rs.pipeTo(ws, { preventClose: true }).then(() => {
  log('pipe done, locked', ws.locked);
  const w = ws.getWriter();
  watch('w', w.write('b'));
  watch('close', w.close());
});
