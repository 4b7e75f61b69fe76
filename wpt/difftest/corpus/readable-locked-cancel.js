// ReadableStream.cancel() on a locked stream rejects TypeError without calling the source;
// reader.cancel works; getReader on a closed/errored stream gives settled closed promises.
const rs = new ReadableStream(source('src', { cancel(r) { log('cancel', r); } }));
const r = rs.getReader();
watch('stream cancel locked', rs.cancel('x'));
watch('reader cancel', r.cancel('y'));
r.releaseLock();
watch('closed-stream reader closed', rs.getReader().closed);
