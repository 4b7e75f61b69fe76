// tee(): cancelling both branches cancels the source with [reasonA, reasonB]; both cancel
// promises resolve with the source cancel result.
const rs = new ReadableStream(source('src', {
  cancel(reason) { log('source cancel reason', reason); return delay(1); },
}));
const [a, b] = rs.tee();
watch('a.cancel', a.cancel('ra'));
log('between');
watch('b.cancel', b.cancel('rb'));
