// A traced() underlying source whose start() and pull() are called. The reference (webidl2js)
// converts the callback's `this` with tryWrapperForImpl, which reads the source's
// Symbol(wrapper) property; WebIDL's "invoke a callback function" reads no property of the
// callback this value. The comparator rule `webidl2js-wrapper-probe` drops that reference line
// (wpt/src/difftest/compare.rs); every other read and call must match.
const rs = new ReadableStream(traced('src', source('s', {
  start(c) { c.enqueue(1); },
  pull(c) { c.close(); },
})));
watch('read', rs.getReader().read());
