// The contract of examples/serve.js on Deno.serve.   deno run -A deno-serve.js PORT
const port = Number(Deno.args[0] ?? 0);
const CHUNK = 65536;
const pattern = new Uint8Array(CHUNK + 251);
for (let i = 0; i < pattern.length; i++) pattern[i] = i % 251;

function patternStream(total) {
  let sent = 0;
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

Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen({ hostname, port }) {
    console.log(`listening on http://${hostname}:${port}`);
  },
}, (request) => {
  const url = new URL(request.url);
  if (request.method === "GET" && url.pathname === "/") return new Response("hello from deno\n");
  if (request.method === "GET" && url.pathname === "/stream") {
    const total = Math.floor(Number(url.searchParams.get("mib") ?? "1") * 1048576);
    return new Response(patternStream(total));
  }
  if (request.method === "POST" && url.pathname === "/echo") return new Response(request.body);
  return new Response("not found\n", { status: 404 });
});
