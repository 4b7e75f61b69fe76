// Unobserved pipeTo rejections are reported; a pipeThrough's internal pipe promise is marked
// handled per spec (no report) even when it rejects.
const rs = new ReadableStream({ start(c) { c.error(new Error('src')); } });
rs.pipeTo(new WritableStream());
const rs2 = new ReadableStream({ start(c) { c.error(new Error('src2')); } });
const out = rs2.pipeThrough(new TransformStream());
out.getReader().closed.catch((e) => log('pipeThrough readable errored', e));
log('end of script');
