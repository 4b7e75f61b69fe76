// Unobserved rejections on the writable side: writer.closed / ready (handled per spec) vs
// write(), close() and abort() promises.
const ws = new WritableStream({ start(c) { c.error(new Error('W')); } });
const w = ws.getWriter();
w.write(1);
w.close();
const ws2 = new WritableStream({ abort() { throw new Error('abort fails'); } });
ws2.abort('x');
const ws3 = new WritableStream({ write() { throw new Error('write fails'); } });
const w3 = ws3.getWriter();
w3.write('a');
w3.releaseLock();
log('end of script');
