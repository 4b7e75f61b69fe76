// pipeTo from an already errored source: the destination is aborted; with preventAbort it is
// left alone.
const e = new Error('pre');
const rs1 = new ReadableStream({ start(c) { c.error(e); } });
const ws1 = new WritableStream(source('sink1', { abort(r) { log('abort1', r); } }));
watch('pipe1', rs1.pipeTo(ws1));
const rs2 = new ReadableStream({ start(c) { c.error(e); } });
const ws2 = new WritableStream(source('sink2', { abort() { log('abort2 must not run'); } }));
watch('pipe2', rs2.pipeTo(ws2, { preventAbort: true }));
