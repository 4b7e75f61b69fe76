use crate::test_support::{check, context, eval, string};

/// The iteration methods and the iterator prototype have WebIDL's shapes, for both
/// interfaces that use the helper.
#[test]
fn pair_iterable_shapes() {
    let mut ctx = context();
    for (interface, tag) in [
        ("Headers", "Headers Iterator"),
        ("URLSearchParams", "URLSearchParams Iterator"),
        ("FormData", "FormData Iterator"),
    ] {
        eval(&mut ctx, &format!("globalThis.I = {interface};"));
        // entries, keys, values, forEach: enumerable writable configurable, lengths 0,0,0,1;
        // @@iterator is entries, not enumerable.
        check(
            &mut ctx,
            r#"['entries', 'keys', 'values', 'forEach'].every((n, i) => {
                 const d = Object.getOwnPropertyDescriptor(I.prototype, n);
                 return d.enumerable && d.writable && d.configurable && d.value.name === n
                   && d.value.length === (i === 3 ? 1 : 0);
               })"#,
        );
        check(
            &mut ctx,
            r#"(() => {
                 const d = Object.getOwnPropertyDescriptor(I.prototype, Symbol.iterator);
                 return d.value === I.prototype.entries && !d.enumerable && d.writable
                   && d.configurable;
               })()"#,
        );
        // The own keys' order: keys, values, forEach after entries.
        check(
            &mut ctx,
            r#"(() => {
                 const k = Object.getOwnPropertyNames(I.prototype);
                 const e = k.indexOf('entries');
                 return k[e + 1] === 'keys' && k[e + 2] === 'values' && k[e + 3] === 'forEach';
               })()"#,
        );
        // %<I>IteratorPrototype%: [[Prototype]] %Iterator.prototype%, own keys next and
        // @@toStringTag only.
        let proto_checks = format!(
            r#"(() => {{
                 const p = Object.getPrototypeOf(new I().entries());
                 const ip = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
                 const n = Object.getOwnPropertyDescriptor(p, 'next');
                 const t = Object.getOwnPropertyDescriptor(p, Symbol.toStringTag);
                 return Object.getPrototypeOf(p) === ip
                   && Reflect.ownKeys(p).length === 2
                   && n.enumerable && n.writable && n.configurable && n.value.length === 0
                   && t.value === '{tag}' && !t.writable && !t.enumerable && t.configurable
                   && Object.getPrototypeOf(new I().keys()) === p;
               }})()"#
        );
        check(&mut ctx, &proto_checks);
    }
}

/// `next` of one interface's iterator prototype rejects the other's iterators and other
/// objects; the methods brand-check `this`.
#[test]
fn pair_iterator_brand_checks() {
    let mut ctx = context();
    let out = string(
        &mut ctx,
        r#"
        const out = [];
        const hNext = Object.getPrototypeOf(new Headers().entries()).next;
        const uNext = Object.getPrototypeOf(new URLSearchParams('a=1').entries()).next;
        for (const f of [() => hNext.call(new URLSearchParams('a=1').entries()),
                         () => uNext.call(new Headers([['a', '1']]).keys()),
                         () => hNext.call({}),
                         () => Headers.prototype.entries.call(new URLSearchParams()),
                         () => URLSearchParams.prototype.forEach.call(new Headers(), () => {}),
                         () => new Headers().forEach(1)])
          try { f(); out.push('no'); } catch (e) { out.push(e instanceof TypeError); }
        out.push(JSON.stringify(uNext.call(new URLSearchParams('a=1').values())));
        out.join(',')
        "#,
    );
    assert_eq!(
        out,
        "true,true,true,true,true,true,{\"value\":\"1\",\"done\":false}"
    );
}

/// The value pairs are read afresh at each step: forEach and an iterator see changes made
/// while iterating; an iterator keeps only its index, so one past the end sees pairs appended
/// later.
#[test]
fn pair_iteration_is_live() {
    let mut ctx = context();
    let out = string(
        &mut ctx,
        r#"
        const out = [];
        const p = new URLSearchParams('a=1&b=2');
        p.forEach((v, k, o) => { out.push(k + v); if (k === 'a') o.delete('b'), o.append('c', '3'); });
        const it = p.keys();
        out.push(it.next().value);
        p.delete('a');
        out.push(it.next().value, it.next().done);
        p.append('d', '4');
        out.push(it.next().done);
        const h = new Headers({b: '2'});
        const hi = h.entries();
        h.append('a', '1');
        out.push(JSON.stringify(hi.next().value));
        out.join(',')
        "#,
    );
    // After deleting "a", index 1 is past the end of ["c"]; "d" appended later is at index 1.
    assert_eq!(out, "a1,c3,a,,true,false,[\"a\",\"1\"]");
}
