// WritableStream with ByteLengthQueuingStrategy: desiredSize counts byte lengths of queued
// chunks; a chunk without byteLength gives NaN size and errors the stream.
const ws = new WritableStream(source('sink', { write(c) { return delay(1); } }), new ByteLengthQueuingStrategy({ highWaterMark: 10 }));
const w = ws.getWriter();
watch('w1', w.write(new Uint8Array(4)));
log('desiredSize', w.desiredSize);
watch('w2', w.write(new Uint8Array(8)));
log('desiredSize', w.desiredSize);
watch('w3', w.write({}));
log('desiredSize', w.desiredSize);
watch('closed', w.closed);
