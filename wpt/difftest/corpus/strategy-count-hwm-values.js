// ReadableStream highWaterMark edge values: 0, Infinity, fractional, NaN, -1, a string; the
// start-time desiredSize shows the converted value.
function tryHwm(label, hwm) {
  attempt(label, () => new ReadableStream({
    start(c) { log(label + ' desiredSize', c.desiredSize); },
  }, { highWaterMark: hwm }));
}
tryHwm('zero', 0);
tryHwm('infinity', Infinity);
tryHwm('fraction', 0.5);
tryHwm('nan', NaN);
tryHwm('negative', -1);
tryHwm('string', '3');
tryHwm('neg zero', -0);
tryHwm('object', { valueOf() { log('valueOf'); return 2; } });
