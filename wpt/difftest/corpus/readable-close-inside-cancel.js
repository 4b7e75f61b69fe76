// ReadableStream: the source's cancel() calls controller.close()/enqueue(): both throw
// TypeError (the stream is already closed); cancel resolves.
const rs = new ReadableStream(source('src', {
  start(c) { this.c = c; },
  cancel(reason) {
    attempt('close in cancel', () => this.c.close());
    attempt('enqueue in cancel', () => this.c.enqueue(1));
    attempt('error in cancel', () => this.c.error(new Error('x')));
  },
}));
watch('cancel', rs.cancel('r'));
