// CountQueuingStrategy / ByteLengthQueuingStrategy: highWaterMark conversion, size functions
// (shared identity, length/name), constructor argument errors; the init dictionary is traced.
const c1 = new CountQueuingStrategy(traced('init1', { highWaterMark: 3.5 }));
const c2 = new CountQueuingStrategy({ highWaterMark: -1 });
log('count', c1.highWaterMark, c2.highWaterMark, c1.size === c2.size, c1.size.length, c1.size.name);
log('count size', c1.size(), c1.size('abc'));
const b1 = new ByteLengthQueuingStrategy(traced('init2', { highWaterMark: 16 }));
log('bytes', b1.highWaterMark, b1.size.name, b1.size.length);
log('bytes size', b1.size(new Uint8Array(5)), b1.size({ byteLength: 'x' }));
attempt('bytes size undefined', () => b1.size(undefined));
attempt('missing hwm', () => new CountQueuingStrategy({}));
attempt('no arg', () => new ByteLengthQueuingStrategy());
attempt('nan hwm', () => new CountQueuingStrategy({ highWaterMark: NaN }).highWaterMark);
attempt('call without new', () => CountQueuingStrategy({ highWaterMark: 1 }));
