// tee() on a locked stream throws TypeError; tee of an errored stream gives errored branches.
const rs = new ReadableStream();
rs.getReader();
attempt('tee locked', () => rs.tee());
const errored = new ReadableStream({ start(c) { c.error(new Error('e')); } });
const [a, b] = errored.tee();
watch('a.closed', a.getReader().closed);
watch('b.closed', b.getReader().closed);
const closed = new ReadableStream({ start(c) { c.close(); } });
const [c1, c2] = closed.tee();
watch('c1 read', c1.getReader().read());
watch('c2 read', c2.getReader().read());
