// Benchmark 4 on Deno.   deno run -A deno-proxy.js PORT UPSTREAM
const port = Number(Deno.args[0] ?? 0);
const upstream = Deno.args[1];
Deno.serve({
  hostname: "127.0.0.1",
  port,
  onListen({ hostname, port }) {
    console.log(`listening on http://${hostname}:${port}`);
  },
}, async (request) => {
  const url = new URL(request.url);
  const answer = await fetch(upstream + url.pathname + url.search);
  return new Response(answer.body, { status: answer.status });
});
