// Benchmark 4 on Node: http.createServer, Node's fetch() to UPSTREAM, the web body written
// through Readable.fromWeb.   node node-proxy.mjs PORT UPSTREAM
import http from "node:http";
import { Readable } from "node:stream";

const port = Number(process.argv[2] ?? 0);
const upstream = process.argv[3];
const server = http.createServer(async (req, res) => {
  try {
    const answer = await fetch(upstream + req.url);
    res.writeHead(answer.status);
    Readable.fromWeb(answer.body).pipe(res);
  } catch (e) {
    res.writeHead(502);
    res.end(String(e));
  }
});
server.keepAliveTimeout = 60_000;
server.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});
