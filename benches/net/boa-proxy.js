// Benchmark 4 on boa-streams: a proxy whose handler fetch()es UPSTREAM + the request's path
// and returns its body.   boa-streams boa-proxy.js PORT UPSTREAM
const port = Number(scriptArgs[0] ?? 0);
const upstream = scriptArgs[1];
BoaStreams.serve({
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
