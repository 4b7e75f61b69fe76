// The module version of pipeline.js: imports its stream pieces from a local module and
// awaits the pipe at the top level (the event loop runs timers while it waits).
//
//   boa-streams examples/pipeline.mjs
import { counter, toCsv, sleep } from './lib/csv.mjs';

const lines = [];
const sink = new WritableStream({
  async write(line) {
    await sleep(1); // a slow consumer: backpressure holds the source back
    lines.push(line);
  },
});

await counter(10).pipeThrough(toCsv(['id', 'value'])).pipeTo(sink);
console.log(lines.join("\n"));

console.log(`${lines.length} lines written by ${import.meta.url.split('/').pop()}`);
