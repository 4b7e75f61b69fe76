// WritableStream: controller.signal reason for abort with an Error and with undefined (which
// becomes an AbortError DOMException); the abort event runs before the sink's abort.
function make(name) {
  return new WritableStream(source(name, {
    start(c) {
      c.signal.addEventListener('abort', () => log(name + ' event', c.signal.reason));
    },
    abort(r) { log(name + ' abort arg', r); },
  }));
}
watch('abort1', make('s1').abort(new Error('reason')));
watch('abort2', make('s2').abort());
watch('abort3', make('s3').getWriter().abort(undefined));
