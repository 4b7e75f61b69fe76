// A worker produces a byte stream; this thread reads it through CompressionStream.
//
//   cargo run -q -p boa_streams_host --bin boa-streams -- examples/worker-stream.js [MiB]
//
// The ReadableStream is created in the worker and transferred with postMessage: its chunks
// cross threads one at a time (the cross-realm pipe pulls only when this side reads), so
// memory stays bounded whatever the size.
const mib = Number(scriptArgs[0] ?? 8);
const worker = new Worker("worker-stream-producer.js");
worker.onmessage = async (event) => {
  const started = performance.now();
  let raw = 0;
  const counted = event.data.pipeThrough(new TransformStream({
    transform(chunk, controller) { raw += chunk.byteLength; controller.enqueue(chunk); },
  }));
  let compressed = 0;
  for await (const chunk of counted.pipeThrough(new CompressionStream("gzip"))) {
    compressed += chunk.byteLength;
  }
  const ms = performance.now() - started;
  console.log(`read ${raw} bytes from the worker, ${compressed} bytes gzipped, in ${ms.toFixed(0)} ms`);
  worker.terminate();
};
worker.postMessage({ mib });
