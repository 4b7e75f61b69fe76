// WritableStream: on a successful close the writer's closed promise and the close() promise
// settle in spec order; ready stays resolved.
const ws = new WritableStream(source('sink', { close() { return delay(1); } }));
const w = ws.getWriter();
watch('closed', w.closed);
watch('close', w.close());
watch('ready', w.ready);
