//! WebIDL dictionaries as the streams' constructors read them (moved from `boa_webidl`, whose
//! own tests have no interface taking a dictionary).

use boa_engine::JsValue;
use boa_webidl::{js_key, Dictionary};

use crate::test_support::{both_modes, context, eval, run_jobs, string};

/// Dictionary members read the same way with the fast paths on and off: getters and proxy
/// traps run in member order, members on the prototype chain and on Object.prototype are
/// found, a conversion that adds a member is seen by the later reads.
#[test]
fn dictionary_members_same_in_both_modes() {
    let log = both_modes(|_| {
        let mut ctx = context();
        eval(
            &mut ctx,
            r#"
            globalThis.log = [];
            class Src { pull(c) { log.push('class pull'); c.enqueue(1); } }
            new ReadableStream(new Src()).getReader().read().then((r) => log.push('read ' + r.value));
            const traps = new Proxy({}, { get(t, k, r) { log.push('get ' + String(k)); return Reflect.get(t, k, r); } });
            new ReadableStream(Object.create(traps));
            Object.prototype.start = function () { log.push('proto start'); };
            new ReadableStream({});
            delete Object.prototype.start;
            const src = { autoAllocateChunkSize: { valueOf() { src.type = 'bytes'; return 8; } } };
            log.push('bytes ' + (new ReadableStream(src).getReader({ mode: 'byob' }) !== null));
            try { new ReadableStream({ type: 'byte' }); } catch (e) { log.push(e.name); }
            // Conversion errors in member order: autoAllocateChunkSize's before pull's.
            try { new ReadableStream({ autoAllocateChunkSize: NaN, pull: 1 }); }
            catch (e) { log.push(e.message.includes('autoAllocateChunkSize')); }
            try { new ReadableStream({ cancel: 1, pull: 1 }); }
            catch (e) { log.push(e.message.includes('cancel')); }
            "#,
        );
        run_jobs(&mut ctx);
        string(&mut ctx, "log.join(',')")
    });
    assert_eq!(
        log,
        "get autoAllocateChunkSize,get cancel,get pull,get start,get type,proto start,\
         bytes true,TypeError,true,true,class pull,read 1,class pull"
    );
    // Dictionary::get on undefined has no members.
    let mut ctx = context();
    let d = Dictionary::new(&JsValue::undefined(), "X").expect("undefined is a dictionary");
    assert_eq!(
        d.get(js_key!("pull"), &mut ctx).expect("no user code"),
        None
    );
}
