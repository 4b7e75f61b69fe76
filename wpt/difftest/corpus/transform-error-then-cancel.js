// TransformStream: controller.error() from outside, then readable.cancel() and
// writable.abort(): both reject with the stored error; transformer.cancel is not called.
let tc;
const ts = new TransformStream(source('tr', {
  start(c) { tc = c; },
  cancel(r) { log('cancel must not run', r); },
}));
tc.error(new Error('E'));
watch('cancel', ts.readable.cancel('x'));
watch('abort', ts.writable.abort('y'));
