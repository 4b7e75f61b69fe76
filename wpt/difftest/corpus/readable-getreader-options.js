// getReader(options): the options dictionary's mode getter is read once (traced); a throwing
// getter propagates; mode "byob" on a byte stream; an unknown mode throws TypeError.
const bs = new ReadableStream({ type: 'bytes' });
const r = bs.getReader(traced('opts', { mode: 'byob' }));
log('byob reader', Object.prototype.toString.call(r));
r.releaseLock();
attempt('throwing getter', () => bs.getReader({ get mode() { throw new Error('mode'); } }));
attempt('mode object', () => bs.getReader({ mode: { toString() { log('toString'); return 'byob'; } } }));
attempt('empty mode', () => bs.getReader({ mode: '' }));
attempt('primitive options', () => bs.getReader(1));
