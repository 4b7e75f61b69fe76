// WritableStream: strategy size() re-enters writer.abort() during write(): the write rejects
// and the sink's abort runs; ordering of the abort promise vs the write promise.
let w;
let armed = true;
const ws = new WritableStream(source('sink', { write(c) { log('write', c); }, abort(r) { log('abort', r); } }), {
  size() { if (armed) { armed = false; watch('inner abort', w.abort('in size')); } return 1; },
});
w = ws.getWriter();
watch('write', w.write('x'));
watch('closed', w.closed);
