// pipeTo into an already errored destination: the source is cancelled; with preventCancel
// the pipe just rejects.
const ws1 = new WritableStream({ start(c) { c.error(new Error('dest')); } });
const rs1 = new ReadableStream(source('src1', { cancel(r) { log('cancel1', r); } }));
watch('pipe1', rs1.pipeTo(ws1));
const ws2 = new WritableStream({ start(c) { c.error(new Error('dest2')); } });
const rs2 = new ReadableStream(source('src2', { cancel() { log('cancel2 must not run'); } }));
watch('pipe2', rs2.pipeTo(ws2, { preventCancel: true }));
