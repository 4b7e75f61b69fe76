// WritableStream highWaterMark edge values: NaN and -1 throw RangeError; fractional and
// Infinity accepted; desiredSize shows them.
function tryHwm(label, hwm) {
  const ws = attempt(label, () => new WritableStream({}, { highWaterMark: hwm }));
  if (ws) log(label + ' desiredSize', ws.getWriter().desiredSize);
}
tryHwm('nan', NaN);
tryHwm('negative', -1);
tryHwm('fraction', 0.25);
tryHwm('infinity', Infinity);
tryHwm('null', null);
tryHwm('undefined', undefined);
tryHwm('bigint-like string', '1e1');
