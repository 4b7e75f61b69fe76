// Two pipes into the same destination: the second pipeTo rejects (destination locked);
// after the first finishes with preventClose, the second can pipe.
const rs1 = new ReadableStream({ start(c) { c.enqueue('1'); c.close(); } });
const rs2 = new ReadableStream({ start(c) { c.enqueue('2'); c.close(); } });
const ws = new WritableStream(source('sink', { write(ch) { log('write', ch); }, close() { log('close'); } }));
const first = rs1.pipeTo(ws, { preventClose: true });
watch('pipe2 while locked', rs2.pipeTo(ws));
log('rs2 locked', rs2.locked);
first.then(() => { log('first done'); watch('pipe2', rs2.pipeTo(ws)); });
