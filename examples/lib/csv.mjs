// Stream building blocks for examples/pipeline.mjs.

/** A ReadableStream of `count` records `{ id, value }`, produced on demand (pull). */
export function counter(count) {
  let produced = 0;
  return new ReadableStream({
    pull(controller) {
      if (produced === count) {
        controller.close();
        return;
      }
      produced++;
      controller.enqueue({ id: produced, value: produced * produced });
    },
  }, { highWaterMark: 1 });
}

/** A TransformStream from records to CSV lines, with a header and a trailer. */
export function toCsv(columns) {
  return new TransformStream({
    start(controller) {
      controller.enqueue(columns.join(','));
    },
    transform(record, controller) {
      controller.enqueue(columns.map((c) => record[c]).join(','));
    },
    flush(controller) {
      controller.enqueue('# end');
    },
  });
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
