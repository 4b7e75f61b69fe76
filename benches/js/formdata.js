// FormData bodies: multipart/form-data serialization and formData() parsing, against reading
// the same bytes with arrayBuffer() (the ratio is the parser's cost over the body's read).
// n is the number of round trips; each body is one 1 MiB file plus 100 small fields.
const N = 20;
const FILE = new Uint8Array(1 << 20).map((_, i) => (i * 31) & 255);
function makeForm() {
  const fd = new FormData();
  for (let i = 0; i < 100; i++) fd.append("field" + i, "value " + i);
  fd.append("file", new File([FILE], "data.bin", { type: "application/octet-stream" }));
  return fd;
}
const form = makeForm();
const encoded = [];
for (let i = 0; i < 100; i++) encoded.push(`field${i}=value+${i}`);
const urlencoded = encoded.join("&");

scenario({ group: "formdata", name: "new Response(fd).arrayBuffer() (1 MiB file + 100 fields)", n: N,
  check: (n, v) => v === n,
  run: async (n) => {
    let count = 0;
    for (let i = 0; i < n; i++) if ((await new Response(form).arrayBuffer()).byteLength > FILE.length) count++;
    return count;
  } });
scenario({ group: "formdata", name: "new Response(fd).formData() (1 MiB file + 100 fields)", n: N,
  check: (n, v) => v === n,
  run: async (n) => {
    let count = 0;
    for (let i = 0; i < n; i++) if ((await new Response(form).formData()).get("file").size === FILE.length) count++;
    return count;
  } });
scenario({ group: "formdata", name: "formData() of 100 urlencoded fields", n: N * 10,
  check: (n, v) => v === n,
  run: async (n) => {
    let count = 0;
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    for (let i = 0; i < n; i++) if ((await new Response(urlencoded, { headers }).formData()).has("field99")) count++;
    return count;
  } });
