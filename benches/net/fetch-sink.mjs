// Benchmark 1 (every runtime runs this same file): fetch() URL and read the body with
// `for await` into a sink (the bytes are counted, never looked at). Prints one JSON line.
//   boa-streams fetch-sink.mjs URL | node fetch-sink.mjs URL | deno run -A fetch-sink.mjs URL
const args = globalThis.scriptArgs ?? globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
const url = args[0];
const t0 = performance.now();
const response = await fetch(url);
let bytes = 0;
for await (const chunk of response.body) bytes += chunk.byteLength;
const secs = (performance.now() - t0) / 1000;
console.log(JSON.stringify({ bytes, secs, mb_s: bytes / 1e6 / secs }));
