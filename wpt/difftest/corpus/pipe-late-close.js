// pipeTo: the source closes later (no chunks): the destination is closed and the pipe
// resolves; preventClose variant.
let c1, c2;
const rs1 = new ReadableStream({ start(c) { c1 = c; } });
const rs2 = new ReadableStream({ start(c) { c2 = c; } });
const ws1 = new WritableStream(source('sink1', { close() { log('close1'); } }));
const ws2 = new WritableStream(source('sink2', { close() { log('close2 must not run'); } }));
watch('pipe1', rs1.pipeTo(ws1));
watch('pipe2', rs2.pipeTo(ws2, { preventClose: true }));
(async () => { await delay(1); c1.close(); c2.close(); await delay(1); log('ws2 locked', ws2.locked); })();
