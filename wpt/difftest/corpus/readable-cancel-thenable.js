// ReadableStream: the source's cancel returns a thenable; cancel() resolves with undefined
// after it.
const rs = new ReadableStream(source('src', {
  cancel(r) { return thenable('cancelT', 'v'); },
}));
watch('cancel', rs.cancel('x'));
const rs2 = new ReadableStream(source('src2', {
  cancel(r) { return { then(res, rej) { log('>rejecting then'); rej(new Error('thenable rejected')); } }; },
}));
watch('cancel2', rs2.cancel('y'));
