// Unobserved rejections with tee(): the source errors; branch closed promises and the tee's
// internal reads are handled; one branch's read() is reported.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const [a, b] = rs.tee();
a.getReader().read();
b.getReader();
ctrl.error(new Error('T'));
log('end of script');
