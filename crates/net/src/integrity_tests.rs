//! `fetch(url, { integrity })` over every scheme: data:, blob:, file: and a loopback
//! server (the harness of `tests.rs`; every wait is bounded).

use base64::Engine as _;

use crate::integrity::Algorithm;
use crate::test_support::*;
use crate::tests::{run_until, server, start};

/// `"<token>-<base64 of the digest of bytes>"`.
fn sri(algorithm: Algorithm, bytes: &[u8]) -> String {
    let token = match algorithm {
        Algorithm::Sha256 => "sha256",
        Algorithm::Sha384 => "sha384",
        Algorithm::Sha512 => "sha512",
    };
    let value = base64::engine::general_purpose::STANDARD.encode(algorithm.digest(bytes));
    format!("{token}-{value}")
}

/// The script's `attempt(input, init)`: logs `status:text` or `ErrorName:message`.
const ATTEMPT: &str = "globalThis.attempt = async (input, init) => {
    try { const r = await fetch(input, init); log.push(r.status + ':' + await r.text()); }
    catch (e) { log.push(e.name + ':' + e.message); }
};";

#[test]
fn data_urls_are_checked_against_each_algorithm() {
    let body = b"Hello, World!";
    let (s256, s384, s512) = (
        sri(Algorithm::Sha256, body),
        sri(Algorithm::Sha384, body),
        sri(Algorithm::Sha512, body),
    );
    let wrong = sri(Algorithm::Sha256, b"something else");
    let mut ctx = start(ATTEMPT, 0);
    eval(
        &mut ctx,
        &format!(
            "(async () => {{
                const url = 'data:,Hello%2C%20World!';
                for (const integrity of ['', '{s256}', '{s384}', '{s512}', '{wrong}', 'md5-x sha1-y',
                                         '{s256}?ct=text/plain', 'sha256-x {s384}', '{s256} sha384-x']) {{
                    await attempt(url, {{ integrity }});
                }}
            }})().finally(() => {{ done = true; }});"
        ),
    );
    run_until(&mut ctx, "done");
    let mismatch = "TypeError:fetch failed: data:,Hello%2C%20World!: integrity mismatch";
    let got = string(&mut ctx, "log.join('|')");
    let expected = [
        "200:Hello, World!",
        "200:Hello, World!",
        "200:Hello, World!",
        "200:Hello, World!",
        mismatch,
        // No valid metadata: a match.
        "200:Hello, World!",
        "200:Hello, World!",
        // The strongest algorithm decides.
        "200:Hello, World!",
        mismatch,
    ]
    .join("|");
    assert_eq!(got, expected);
}

#[test]
fn a_request_object_carries_its_integrity_to_fetch() {
    let good = sri(Algorithm::Sha256, b"x");
    let bad = sri(Algorithm::Sha256, b"y");
    let mut ctx = start(ATTEMPT, 0);
    eval(
        &mut ctx,
        &format!(
            "(async () => {{
                await attempt(new Request('data:,x', {{ integrity: '{good}' }}));
                await attempt(new Request('data:,x', {{ integrity: '{bad}' }}));
                // init's integrity replaces the Request's.
                await attempt(new Request('data:,x', {{ integrity: '{bad}' }}), {{ integrity: '{good}' }});
            }})().finally(() => {{ done = true; }});"
        ),
    );
    run_until(&mut ctx, "done");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        "200:x|TypeError:fetch failed: data:,x: integrity mismatch|200:x"
    );
}

#[test]
fn blob_and_file_urls_are_checked() {
    let dir = std::env::temp_dir().join(format!("boa-net-integrity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("f.txt");
    std::fs::write(&file, "file body").unwrap();
    let file_url = url::Url::from_file_path(&file).unwrap().to_string();
    let (blob_ok, file_ok) = (
        sri(Algorithm::Sha384, b"blob body"),
        sri(Algorithm::Sha512, b"file body"),
    );
    let mut ctx = start(ATTEMPT, 0);
    eval(
        &mut ctx,
        &format!(
            "(async () => {{
                const blob = URL.createObjectURL(new Blob(['blob ', 'body']));
                await attempt(blob, {{ integrity: '{blob_ok}' }});
                await attempt(blob, {{ integrity: '{file_ok}' }});
                await attempt('{file_url}', {{ integrity: '{file_ok}' }});
                try {{ await fetch('{file_url}', {{ integrity: '{blob_ok}' }}); log.push('resolved'); }}
                catch (e) {{ log.push(e.name, e.message.includes('{file_url}: integrity mismatch')); }}
            }})().finally(() => {{ done = true; }});"
        ),
    );
    run_until(&mut ctx, "done");
    let got = string(&mut ctx, "log.join('|')");
    std::fs::remove_dir_all(&dir).ok();
    let mut parts = got.split('|');
    assert_eq!(parts.next(), Some("200:blob body"));
    let second = parts.next().unwrap_or_default();
    assert!(
        second.starts_with("TypeError:fetch failed: blob:")
            && second.ends_with(": integrity mismatch"),
        "{got}"
    );
    assert_eq!(
        parts.collect::<Vec<_>>(),
        ["200:file body", "TypeError", "true"]
    );
}

#[test]
fn http_responses_are_read_whole_and_checked() {
    let (port, _) = server();
    let hello = sri(Algorithm::Sha256, b"hello");
    // /stream sends the byte 7, in chunks of 16 KiB.
    let big = vec![7u8; 300_000];
    let big_ok = sri(Algorithm::Sha512, &big);
    let arrived = sri(Algorithm::Sha256, b"arrived");
    let mut ctx = start(ATTEMPT, port);
    eval(
        &mut ctx,
        &format!(
            "(async () => {{
                await attempt(base + '/text', {{ integrity: '{hello}' }});
                await attempt(base + '/text', {{ integrity: '{arrived}' }});
                // Followed redirects: the final response is checked.
                await attempt(base + '/redirect?n=2', {{ integrity: '{arrived}' }});
                // A null body (HEAD, 204) cannot match.
                await attempt(base + '/text', {{ method: 'HEAD', integrity: '{hello}' }});
                await attempt(base + '/nocontent', {{ integrity: '{hello}' }});
                // A large body in many chunks, handed over whole and readable as a stream.
                const r = await fetch(base + '/stream?bytes=300000', {{ integrity: '{big_ok}' }});
                const reader = r.body.getReader();
                let total = 0;
                for (let i = 0; i < 1000; i++) {{
                    const {{ done, value }} = await reader.read();
                    if (done) break;
                    total += value.length;
                }}
                log.push(r.status + ':' + total);
                await attempt(base + '/stream?bytes=299999', {{ integrity: '{big_ok}' }});
            }})().catch(e => log.push('error ' + e)).finally(() => {{ done = true; }});"
        ),
    );
    run_until(&mut ctx, "done");
    let base = format!("http://127.0.0.1:{port}");
    assert_eq!(
        string(&mut ctx, "log.join('|')"),
        [
            "200:hello".to_owned(),
            format!("TypeError:fetch failed: {base}/text: integrity mismatch"),
            "200:arrived".to_owned(),
            format!(
                "TypeError:fetch failed: {base}/text: integrity mismatch (the response has no body)"
            ),
            format!(
                "TypeError:fetch failed: {base}/nocontent: integrity mismatch (the response has no body)"
            ),
            "200:300000".to_owned(),
            format!("TypeError:fetch failed: {base}/stream?bytes=299999: integrity mismatch"),
        ]
        .join("|")
    );
}

#[test]
fn an_abort_while_the_body_is_checked_rejects_with_the_reason() {
    let (port, _) = server();
    let any = sri(Algorithm::Sha256, b"");
    let mut ctx = start("", port);
    eval(
        &mut ctx,
        &format!(
            "(async () => {{
                const c = new AbortController();
                // 64 MiB: the check is still reading when the abort comes.
                const p = fetch(base + '/stream?bytes=67108864', {{ signal: c.signal, integrity: '{any}' }});
                globalThis.abortNow = () => c.abort(new Error('stop'));
                try {{ await p; log.push('resolved'); }} catch (e) {{ log.push(e.message); }}
            }})().finally(() => {{ done = true; }});"
        ),
    );
    // Let the response head arrive and the reading start, then abort.
    crate::tests::run_for(&mut ctx, 100);
    eval(&mut ctx, "abortNow()");
    run_until(&mut ctx, "done");
    assert_eq!(string(&mut ctx, "log.join('|')"), "stop");
}
