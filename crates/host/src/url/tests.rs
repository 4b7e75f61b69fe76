use crate::{Host, HostOptions};

fn host() -> Host {
    Host::new(HostOptions {
        print_errors: false,
        ..HostOptions::default()
    })
    .unwrap()
}

fn eval_string(host: &mut Host, src: &str) -> String {
    let v = host.eval_source(src, "test.js").unwrap();
    v.to_string(host.context()).unwrap().to_std_string_escaped()
}

#[test]
fn search_params_is_the_same_object_linked_both_ways() {
    let mut h = host();
    let out = eval_string(
        &mut h,
        r#"
        const out = [];
        const u = new URL('https://example.com/p?a=1&b=x%20y#frag');
        const p = u.searchParams;
        out.push(p === u.searchParams, p instanceof URLSearchParams, p.get('b'), p.size);
        // Params → URL: the update steps set the URL's query (fragment kept).
        // (The whole list is re-serialized: "x%20y" becomes "x+y".)
        p.append('c', 'd e');
        out.push(u.href);
        p.sort(); p.delete('b');
        out.push(u.search);
        // An empty list sets the query to null.
        p.delete('a'); p.delete('c');
        out.push(u.href);
        // URL → params: the search and href setters re-parse the list.
        u.search = '?x=1&x=2';
        out.push(p.getAll('x').join(), u.searchParams === p);
        u.href = 'https://other.example/?k=v';
        out.push(p.toString());
        u.search = '';
        out.push(p.size, u.href);
        // Brand check of the getter; a URL made by URL.parse has its own params.
        try { Object.getOwnPropertyDescriptor(URL.prototype, 'searchParams').get.call({}); }
        catch (e) { out.push(e.name); }
        const v = URL.parse('http://h/?q=1');
        out.push(v.searchParams.get('q'), v.searchParams !== p);
        // An opaque path: trailing spaces stripped when the query becomes null.
        const o = new URL('data:space    ?test');
        o.searchParams.delete('test');
        out.push(JSON.stringify(o.href));
        // The descriptor shape.
        const d = Object.getOwnPropertyDescriptor(URL.prototype, 'searchParams');
        out.push(d.enumerable, d.configurable, d.set === undefined, d.get.name);
        out.join('|');
        "#,
    );
    assert_eq!(
        out,
        "true|true|x y|2|https://example.com/p?a=1&b=x+y&c=d+e#frag|?a=1&c=d+e|\
         https://example.com/p#frag|1,2|true|k=v|0|https://other.example/|TypeError|1|true|\
         \"data:space\"|true|true|true|get searchParams"
    );
}

#[test]
fn blob_url_store_create_and_revoke() {
    let mut h = host();
    let out = eval_string(
        &mut h,
        r#"
        const out = [];
        globalThis.blob = new Blob(['abc']);
        globalThis.u1 = URL.createObjectURL(blob);
        const u2 = URL.createObjectURL(new File(['x'], 'f.txt'));
        out.push(/^blob:null\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u1), u1 !== u2);
        for (const bad of [() => URL.createObjectURL(), () => URL.createObjectURL('x'),
                           () => URL.createObjectURL(new Uint8Array(1)), () => URL.revokeObjectURL()])
          try { bad(); out.push('no'); } catch (e) { out.push(e.name); }
        // Revoking anything else is a no-op.
        URL.revokeObjectURL('not a url'); URL.revokeObjectURL('https://a/'); URL.revokeObjectURL(u2 + '#f');
        for (const n of ['createObjectURL', 'revokeObjectURL']) {
          const d = Object.getOwnPropertyDescriptor(URL, n);
          out.push(n + d.value.length + d.writable + d.enumerable + d.configurable);
        }
        globalThis.u2 = u2;
        out.join('|');
        "#,
    );
    assert_eq!(
        out,
        "true|true|TypeError|TypeError|TypeError|TypeError|createObjectURL1truetruetrue|revokeObjectURL1truetruetrue"
    );
    let u1 = eval_string(&mut h, "u1");
    let u2 = eval_string(&mut h, "u2");
    let entry = super::blob_url_entry(h.context(), &u1).unwrap();
    assert_eq!(eval_string(&mut h, "blob"), "[object Blob]",);
    let blob = h.eval_source("blob", "t.js").unwrap();
    assert_eq!(blob.as_object().unwrap(), entry);
    // The fragment is ignored: revoking `u2#f` removed u2's entry.
    assert!(super::blob_url_entry(h.context(), &u2).is_none());
    h.eval_source("URL.revokeObjectURL(u1)", "t.js").unwrap();
    assert!(super::blob_url_entry(h.context(), &u1).is_none());
}
