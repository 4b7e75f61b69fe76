// The worker half of worker-stream.js: on request, create a ReadableStream of `mib` MiB in
// 64 KiB chunks and transfer it to the creator.
onmessage = (event) => {
  const total = event.data.mib * 1024 * 1024;
  const chunkSize = 64 * 1024;
  let sent = 0;
  const stream = new ReadableStream({
    pull(controller) {
      if (sent >= total) {
        controller.close();
        close(); // this worker has nothing more to do
        return;
      }
      const chunk = new Uint8Array(Math.min(chunkSize, total - sent));
      chunk.fill(sent / chunkSize & 0xff);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  postMessage(stream, [stream]);
};
