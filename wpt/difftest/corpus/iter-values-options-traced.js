// values(options): the options dictionary (traced) is read once at creation; a getter for
// preventCancel is called; a non-object options throws.
let calls = 0;
const rs = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
const it = rs.values(traced('opts', { get preventCancel() { calls++; return 1; } }));
log('getter calls', calls);
watch('next', it.next());
attempt('primitive options', () => new ReadableStream().values(5));
attempt('null options', () => new ReadableStream().values(null));
