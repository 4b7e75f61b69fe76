// pipeTo from an already closed source: the destination is closed; preventClose variant
// leaves it open.
const rs1 = new ReadableStream({ start(c) { c.close(); } });
const ws1 = new WritableStream(source('sink1', { close() { log('close1'); } }));
watch('pipe1', rs1.pipeTo(ws1));
const rs2 = new ReadableStream({ start(c) { c.close(); } });
const ws2 = new WritableStream(source('sink2', { close() { log('close2 must not run'); } }));
watch('pipe2', rs2.pipeTo(ws2, { preventClose: true }));
