//! FormData across crates: not serializable (structured clone throws), its Files are.

use crate::test_support::{context, eval, string};

#[test]
fn form_data_is_not_serializable_but_its_files_are() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.out = [];
        const fd = new FormData();
        fd.append('f', new File(['abc'], 'a.txt', {type: 'text/plain', lastModified: 9}));
        try { structuredClone(fd); out.push('cloned'); } catch (e) { out.push(e.name, e instanceof DOMException); }
        try { structuredClone({nested: [fd]}); out.push('cloned'); } catch (e) { out.push(e.name); }
        const copy = structuredClone(fd.get('f'));
        out.push(copy instanceof File, copy.name, copy.type, copy.lastModified, copy !== fd.get('f'));
        copy.text().then((t) => out.push(t));
        "#,
    );
    ctx.run_jobs().unwrap();
    assert_eq!(
        string(&mut ctx, "out.join('|')"),
        "DataCloneError|true|DataCloneError|true|a.txt|text/plain|9|true|abc"
    );
}
