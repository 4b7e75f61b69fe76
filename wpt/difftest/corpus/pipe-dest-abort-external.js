// pipeTo: someone else cannot abort the locked destination (rejects); cancelling the source
// via reader is impossible (locked); erroring the source later ends the pipe.
let ctrl;
const rs = new ReadableStream({ start(c) { ctrl = c; } });
const ws = new WritableStream(source('sink', { abort(r) { log('abort', r); } }));
watch('pipe', rs.pipeTo(ws));
watch('ws.abort', ws.abort('x'));
watch('rs.cancel', rs.cancel('y'));
(async () => { await delay(1); ctrl.error(new Error('src')); })();
