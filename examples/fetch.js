// Stream a response to stdout: `boa-streams examples/fetch.js URL`.
const url = scriptArgs[0];
if (!url) throw new TypeError("usage: boa-streams examples/fetch.js URL");
(async () => {
  const response = await fetch(url);
  if (response.body) await response.body.pipeTo(BoaStreams.stdout);
})();
