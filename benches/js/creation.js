// Cost of creating streams and readers, against creating a plain promise.
const N = 20000;
async function main() {
  await bench("new Promise (baseline)", N, async (n) => {
    for (let i = 0; i < n; i++) new Promise(() => {});
  });
  await bench("new ReadableStream()", N, async (n) => {
    for (let i = 0; i < n; i++) new ReadableStream();
  });
  await bench("new ReadableStream().getReader()", N, async (n) => {
    for (let i = 0; i < n; i++) new ReadableStream().getReader();
  });
  await bench("new WritableStream()", N, async (n) => {
    for (let i = 0; i < n; i++) new WritableStream();
  });
  await bench("new TransformStream()", N, async (n) => {
    for (let i = 0; i < n; i++) new TransformStream();
  });
  report("new Promise (baseline)");
}
main();
