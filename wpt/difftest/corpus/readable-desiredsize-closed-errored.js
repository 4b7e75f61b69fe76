// ReadableStreamDefaultController.desiredSize: 0 after close drains, null after error.
let c1, c2;
const rs1 = new ReadableStream({ start(c) { c1 = c; c.enqueue(1); } });
const rs2 = new ReadableStream({ start(c) { c2 = c; } });
c1.close();
log('closing with queue', c1.desiredSize);
const r1 = rs1.getReader();
r1.read().then(() => log('after drain', c1.desiredSize));
c2.error();
log('errored', c2.desiredSize);
