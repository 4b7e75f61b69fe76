// An HTTP server on BoaStreams.serve(): `boa-streams examples/serve.js PORT` (0 = any free
// port) listens on 127.0.0.1 and prints `listening on http://127.0.0.1:PORT` once ready.
//   GET  /            a short text
//   GET  /stream?mib=N  N MiB (byte i = i % 251), produced as the client reads
//   POST /echo        the request body streamed back
// On several cores: `boa-streams --serve-threads N examples/serve.js PORT` runs this script on N
// threads; `reusePort: true` makes the N copies share one listener (each prints its line).
const port = Number(scriptArgs[0] ?? 0);

// One period-251 pattern long enough for any 64 KiB chunk at any phase.
const CHUNK = 65536;
const pattern = new Uint8Array(CHUNK + 251);
for (let i = 0; i < pattern.length; i++) pattern[i] = i % 251;

function patternStream(total) {
  let sent = 0;
  // highWaterMark 0: a chunk is made only when the response writer asks for one, which
  // happens only as fast as the socket drains.
  return new ReadableStream({
    pull(controller) {
      const n = Math.min(CHUNK, total - sent);
      const offset = sent % 251;
      controller.enqueue(pattern.slice(offset, offset + n));
      sent += n;
      if (sent >= total) controller.close();
    },
  }, { highWaterMark: 0 });
}

BoaStreams.serve({
  hostname: "127.0.0.1",
  port,
  reusePort: true,
  onListen({ hostname, port }) {
    console.log(`listening on http://${hostname}:${port}`);
  },
}, (request) => {
  const url = new URL(request.url);
  if (request.method === "GET" && url.pathname === "/") {
    return new Response("hello from boa-streams\n", {
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  if (request.method === "GET" && url.pathname === "/stream") {
    const mib = Number(url.searchParams.get("mib") ?? "1");
    if (!Number.isFinite(mib) || mib < 0) return new Response("bad mib\n", { status: 400 });
    const total = Math.floor(mib * 1048576);
    if (total === 0) return new Response(new Uint8Array(0));
    return new Response(patternStream(total), {
      headers: { "content-type": "application/octet-stream" },
    });
  }
  if (request.method === "POST" && url.pathname === "/echo") {
    return new Response(request.body, {
      headers: { "content-type": request.headers.get("content-type") ?? "application/octet-stream" },
    });
  }
  return new Response("not found\n", { status: 404 });
});
