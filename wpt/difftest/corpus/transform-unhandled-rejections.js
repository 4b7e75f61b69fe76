// Unobserved rejections in a TransformStream: transform throws; the write promise and read
// promise are reported, the internal promises are not.
const ts = new TransformStream({ transform() { throw new Error('tx'); } });
const w = ts.writable.getWriter();
w.write('a');
ts.readable.getReader().read();
const ts2 = new TransformStream({ flush() { return Promise.reject(new Error('flush')); } });
ts2.writable.close();
log('end of script');
