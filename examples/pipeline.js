// A pipe chain: a counting source -> a TransformStream (CSV line formatting) -> a
// WritableStream sink, cancellable through an AbortSignal.
//
//   boa-streams examples/pipeline.js          # runs to completion
//   boa-streams examples/pipeline.js 5        # aborts after 5 ms (AbortSignal.timeout)
//
// Backpressure: the source's pull() is only called when the pipe wants more, and the slow sink
// (one write every millisecond) holds the whole chain back; the source never runs ahead.

const limitMs = scriptArgs.length > 0 ? Number(scriptArgs[0]) : undefined;

let produced = 0;
const source = new ReadableStream({
  pull(controller) {
    if (produced === 20) {
      controller.close();
      return;
    }
    produced++;
    controller.enqueue({ id: produced, value: produced * produced });
  },
  cancel(reason) {
    console.log(`source cancelled after ${produced} records: ${reason.name}`);
  },
}, { highWaterMark: 1 });

const toCsv = new TransformStream({
  start(controller) {
    controller.enqueue('id,value');
  },
  transform(record, controller) {
    controller.enqueue(`${record.id},${record.value}`);
  },
  flush(controller) {
    controller.enqueue('# end');
  },
});

const lines = [];
const sink = new WritableStream({
  write(line) {
    // A slow consumer: each line takes a millisecond.
    return new Promise((resolve) => setTimeout(() => {
      lines.push(line);
      resolve();
    }, 1));
  },
  close() {
    console.log(lines.join('\n'));
  },
  abort(reason) {
    console.log(`sink aborted after ${lines.length} lines: ${reason.name}`);
  },
}, new CountQueuingStrategy({ highWaterMark: 2 }));

const signal = limitMs === undefined
  ? new AbortController().signal
  : AbortSignal.timeout(limitMs);

source
  .pipeThrough(toCsv, { signal })
  .pipeTo(sink, { signal })
  .then(
    () => console.log(`done: ${lines.length} lines, ${produced} records produced`),
    (e) => console.log(`pipe stopped: ${e.name}`),
  );
