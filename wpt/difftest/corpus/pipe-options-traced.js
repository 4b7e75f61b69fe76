// pipeTo/pipeThrough: option dictionary read order (traced), truthiness conversions, and
// invalid signal type.
const rs = new ReadableStream({ start(c) { c.close(); } });
const ws = new WritableStream();
watch('pipe', rs.pipeTo(ws, traced('opts', { preventClose: 0, preventAbort: 'yes', preventCancel: null, signal: undefined })));
const rs2 = new ReadableStream();
watch('bad signal', rs2.pipeTo(new WritableStream(), { signal: {} }));
watch('not a ws', rs2.pipeTo({}));
attempt('pipeThrough bad signal', () => rs2.pipeThrough(new TransformStream(), { signal: 1 }));
attempt('pipeThrough traced', () => rs2.pipeThrough(traced('pair', { readable: new ReadableStream(), writable: new WritableStream() }), traced('o2', {})));
