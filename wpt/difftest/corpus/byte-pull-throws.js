// ReadableByteStream: pull throws: pending BYOB and later reads reject; cancel rejects.
const rs = new ReadableStream(source('src', {
  type: 'bytes',
  pull() { throw new Error('pull'); },
  cancel() { log('cancel must not run'); },
}));
const r = rs.getReader({ mode: 'byob' });
watch('read', r.read(new Uint8Array(2)));
watch('closed', r.closed);
watch('cancel', r.cancel());
