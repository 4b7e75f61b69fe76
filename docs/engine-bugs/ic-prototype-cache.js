// Minimal repro: Boa 0.22.0 inline cache not invalidated when a property it cached from a
// prototype is deleted or redefined (see docs/engine-bugs/README.md).
// Expected (spec, V8, SpiderMonkey): prints "undefined" three times with no error.
// Boa 0.22.0: panics "index out of bounds" in vm/opcode/get/property.rs on the third call.
function f(o) { return o.zz; }
Object.prototype.zz = 1;
f({});
f({});
delete Object.prototype.zz;
console.log(String(f({})));
console.log(String(f({})));
console.log(String(f({})));
