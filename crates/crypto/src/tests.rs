//! Crate-wide tests: the `crypto` global, getRandomValues, randomUUID and SubtleCrypto from
//! script.

use crate::test_support::{check, context, eval, run_jobs, run_log, string};

#[test]
fn interfaces_have_webidl_shapes() {
    let mut ctx = context();
    check(
        &mut ctx,
        "(() => { const d = Object.getOwnPropertyDescriptor(globalThis, 'crypto'); \
         return typeof d.get === 'function' && d.enumerable && d.configurable && !d.set \
         && crypto === crypto && crypto instanceof Crypto; })()",
    );
    check(
        &mut ctx,
        "crypto.subtle === crypto.subtle && crypto.subtle instanceof SubtleCrypto",
    );
    for name in ["Crypto", "SubtleCrypto", "CryptoKey"] {
        check(
            &mut ctx,
            &format!(
                "(() => {{ try {{ new {name}(); return false; }} catch (e) {{ return e instanceof TypeError; }} }})()"
            ),
        );
        check(
            &mut ctx,
            &format!(
                "Object.prototype.toString.call({name}.prototype) === '[object {name}]' \
                 && !Object.getOwnPropertyDescriptor(globalThis, '{name}').enumerable"
            ),
        );
    }
    check(
        &mut ctx,
        "(() => { const d = Object.getOwnPropertyDescriptor(SubtleCrypto.prototype, 'digest'); \
         return d.enumerable && d.writable && d.configurable && d.value.length === 2; })()",
    );
    check(
        &mut ctx,
        "['type','extractable','algorithm','usages'].every(n => { \
         const d = Object.getOwnPropertyDescriptor(CryptoKey.prototype, n); \
         return d.get && !d.set && d.enumerable; })",
    );
}

#[test]
fn get_random_values_fills_integer_arrays_in_place() {
    let mut ctx = context();
    check(
        &mut ctx,
        "(() => { const a = new Uint8Array(64); const r = crypto.getRandomValues(a); \
         return r === a && a.some(x => x !== 0); })()",
    );
    check(
        &mut ctx,
        "(() => { const a = new BigUint64Array(new ArrayBuffer(64), 8, 2); \
         crypto.getRandomValues(a); return a[0] !== 0n || a[1] !== 0n; })()",
    );
    // Exactly 65536 bytes is allowed; one more is a QuotaExceededError.
    check(
        &mut ctx,
        "crypto.getRandomValues(new Uint8Array(65536)).length === 65536",
    );
    assert_eq!(
        string(
            &mut ctx,
            "(() => { try { crypto.getRandomValues(new Uint8Array(65537)); } catch (e) { return e.name; } })()"
        ),
        "QuotaExceededError"
    );
    check(
        &mut ctx,
        "(() => { try { crypto.getRandomValues(new Uint16Array(40000)); } catch (e) { \
           return e instanceof QuotaExceededError && e instanceof DOMException && e.code === 22 \
             && e.quota === null && e.requested === null; } })()",
    );
    for bad in [
        "new Float32Array(1)",
        "new Float64Array(1)",
        "new DataView(new ArrayBuffer(1))",
    ] {
        assert_eq!(
            string(
                &mut ctx,
                &format!("(() => {{ try {{ crypto.getRandomValues({bad}); }} catch (e) {{ return e.name; }} }})()")
            ),
            "TypeMismatchError",
            "{bad}"
        );
    }
    assert_eq!(
        string(
            &mut ctx,
            "(() => { try { crypto.getRandomValues(new ArrayBuffer(1)); } catch (e) { return e.constructor.name; } })()"
        ),
        "TypeError"
    );
}

#[test]
fn random_uuid_is_version_4() {
    let mut ctx = context();
    check(
        &mut ctx,
        "/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID())",
    );
    check(&mut ctx, "crypto.randomUUID() !== crypto.randomUUID()");
}

#[test]
fn digest_settles_from_a_task_after_microtasks() {
    let out = run_log(
        "crypto.subtle.digest('sha-256', new TextEncoderShim('abc')).then(b => log.push( \
           [...new Uint8Array(b)].map(x => x.toString(16).padStart(2, '0')).join(''))); \
         Promise.resolve().then(() => log.push('micro')).then(() => log.push('micro2'));"
            .replace("new TextEncoderShim('abc')", "new Uint8Array([97, 98, 99])")
            .as_str(),
        "log.join(',')",
    );
    assert_eq!(
        out,
        "micro,micro2,ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn errors_reject_with_the_spec_exceptions() {
    let out = run_log(
        "const s = crypto.subtle; \
         const name = p => p.then(() => 'ok', e => e.name); \
         (async () => { \
           log.push(await name(s.digest('MD5', new Uint8Array(1)))); \
           log.push(await name(s.digest({}, new Uint8Array(1)))); \
           log.push(await name(s.digest('SHA-1', 'x'))); \
           log.push(await name(s.generateKey({ name: 'AES-GCM', length: 100 }, true, ['encrypt']))); \
           log.push(await name(s.generateKey({ name: 'AES-GCM', length: 128 }, true, []))); \
           log.push(await name(s.generateKey({ name: 'AES-GCM', length: 128 }, true, ['sign']))); \
           log.push(await name(s.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['bogus']))); \
           const k = await s.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']); \
           log.push(await name(s.exportKey('raw', k))); \
           log.push(await name(s.verify('HMAC', k, new Uint8Array(32), new Uint8Array(1)))); \
           log.push(await name(s.importKey('raw', new Uint8Array(16), 'PBKDF2', true, ['deriveBits']))); \
         })();",
        "log.join(',')",
    );
    assert_eq!(
        out,
        "NotSupportedError,TypeError,TypeError,OperationError,SyntaxError,SyntaxError,TypeError,\
         InvalidAccessError,InvalidAccessError,SyntaxError"
    );
}

#[test]
fn hmac_aes_pbkdf2_hkdf_round_trips() {
    let mut ctx = context();
    eval(
        &mut ctx,
        r#"
        globalThis.log = [];
        const s = crypto.subtle;
        const hex = b => [...new Uint8Array(b)].map(x => x.toString(16).padStart(2, '0')).join('');
        const bytes = str => new Uint8Array([...str].map(c => c.charCodeAt(0)));
        (async () => {
          // HMAC: RFC 4231 test case 2, through a JWK round trip.
          const k = await s.importKey('raw', bytes('Jefe'), { name: 'hmac', hash: 'sha-256' }, true, ['verify', 'sign', 'sign']);
          log.push(k.type, k.extractable, k.algorithm.name, k.algorithm.hash.name, k.algorithm.length, k.usages.join('+'));
          log.push(k.algorithm === k.algorithm && k.usages === k.usages);
          const mac = await s.sign('HMAC', k, bytes('what do ya want for nothing?'));
          log.push(hex(mac));
          const jwk = await s.exportKey('jwk', k);
          log.push(Object.keys(jwk).join('+'), jwk.k, jwk.alg);
          const k2 = await s.importKey('jwk', jwk, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
          log.push(await s.verify('HMAC', k2, mac, bytes('what do ya want for nothing?')));
          // AES-GCM, CBC, CTR round trips.
          for (const [name, params] of [
            ['AES-GCM', { name: 'AES-GCM', iv: new Uint8Array(12), additionalData: bytes('x') }],
            ['AES-CBC', { name: 'AES-CBC', iv: new Uint8Array(16) }],
            ['AES-CTR', { name: 'AES-CTR', counter: new Uint8Array(16), length: 64 }],
          ]) {
            const key = await s.generateKey({ name, length: 256 }, true, ['encrypt', 'decrypt']);
            const c = await s.encrypt(params, key, bytes('hello world'));
            const p = await s.decrypt(params, key, c);
            log.push(name + ':' + new Uint8Array(p).length + ':' + c.byteLength);
          }
          // AES-KW wraps an exported AES key and unwraps it again.
          const kek = await s.generateKey({ name: 'AES-KW', length: 128 }, false, ['wrapKey', 'unwrapKey']);
          const inner = await s.importKey('raw', new Uint8Array(16).fill(7), 'AES-GCM', true, ['encrypt']);
          const wrapped = await s.wrapKey('raw', inner, kek, 'AES-KW');
          const back = await s.unwrapKey('raw', wrapped, kek, 'AES-KW', 'AES-GCM', true, ['encrypt']);
          log.push(wrapped.byteLength, hex(await s.exportKey('raw', back)));
          // PBKDF2 (RFC 6070 case 1, SHA-1) and HKDF (RFC 5869 case 3, SHA-256, empty salt/info).
          const pw = await s.importKey('raw', bytes('password'), 'PBKDF2', false, ['deriveBits', 'deriveKey']);
          log.push(hex(await s.deriveBits({ name: 'PBKDF2', hash: 'SHA-1', salt: bytes('salt'), iterations: 1 }, pw, 160)));
          const ikm = await s.importKey('raw', new Uint8Array(22).fill(0x0b), 'HKDF', false, ['deriveBits']);
          log.push(hex(await s.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new Uint8Array(0) }, ikm, 336)));
          const derived = await s.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt: bytes('salt'), iterations: 2 }, pw,
            { name: 'AES-CBC', length: 192 }, true, ['decrypt']);
          log.push(derived.algorithm.name, derived.algorithm.length, derived.usages.join('+'));
        })().catch(e => log.push('failed: ' + e.name + ': ' + e.message));
        "#,
    );
    run_jobs(&mut ctx);
    let out = string(&mut ctx, "log.join('\\n')");
    let expected = [
        "secret",
        "true",
        "HMAC",
        "SHA-256",
        "32",
        "sign+verify",
        "true",
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        "alg+ext+k+key_ops+kty",
        "SmVmZQ",
        "HS256",
        "true",
        "AES-GCM:11:27",
        "AES-CBC:11:16",
        "AES-CTR:11:11",
        "24",
        "07070707070707070707070707070707",
        "0c60c80f961f0e71f3a9b524af6012062fe037a6",
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8",
        "AES-CBC",
        "192",
        "decrypt",
    ]
    .join("\n");
    assert_eq!(out, expected);
}

/// Run `script` (which fills `globalThis.log`), with the native-future driver polled until
/// nothing is pending (operations on worker threads settle through it), and return the log.
fn run_async(script: &str) -> String {
    let mut ctx = context();
    eval(&mut ctx, "globalThis.log = [];");
    eval(&mut ctx, script);
    run_jobs(&mut ctx);
    boa_streams::native::run_until_idle(&mut ctx).unwrap();
    string(&mut ctx, "log.join('\\n')")
}

#[test]
fn asymmetric_keys_sign_verify_derive_and_export_from_script() {
    let out = run_async(
        r#"
        const s = crypto.subtle;
        const data = new Uint8Array([1, 2, 3]);
        (async () => {
          const ec = await s.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
          log.push(Object.keys(ec).join('+'), ec.publicKey.type, ec.privateKey.type,
            ec.publicKey.usages.join('+'), ec.privateKey.usages.join('+'), ec.privateKey.algorithm.namedCurve);
          const sig = await s.sign({ name: 'ECDSA', hash: 'SHA-256' }, ec.privateKey, data);
          log.push(sig.byteLength, await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, ec.publicKey, sig, data));
          const jwk = await s.exportKey('jwk', ec.privateKey);
          log.push(Object.keys(jwk).join('+'));
          log.push(await s.sign({ name: 'ECDSA', hash: 'SHA-256' }, ec.publicKey, data).catch(e => e.name));
          const ed = await s.generateKey('Ed25519', false, ['sign', 'verify']);
          const edsig = await s.sign('Ed25519', ed.privateKey, data);
          log.push(edsig.byteLength, await s.verify('Ed25519', ed.publicKey, edsig, data),
            (await s.exportKey('raw', ed.publicKey)).byteLength,
            await s.exportKey('pkcs8', ed.privateKey).catch(e => e.name));
          const a = await s.generateKey({ name: 'ECDH', namedCurve: 'P-384' }, false, ['deriveBits', 'deriveKey']);
          const b = await s.generateKey({ name: 'ECDH', namedCurve: 'P-384' }, false, ['deriveBits']);
          const ab = new Uint8Array(await s.deriveBits({ name: 'ECDH', public: b.publicKey }, a.privateKey, 100));
          const ba = new Uint8Array(await s.deriveBits({ name: 'ECDH', public: a.publicKey }, b.privateKey, 100));
          log.push(ab.length, ab.join() === ba.join(), ab[12] & 0x0f);
          const aes = await s.deriveKey({ name: 'ECDH', public: b.publicKey }, a.privateKey,
            { name: 'AES-GCM', length: 256 }, false, ['encrypt']);
          log.push(aes.algorithm.name + aes.algorithm.length);
          const x = await s.generateKey('X25519', true, ['deriveBits']);
          log.push(x.publicKey.usages.length, (await s.deriveBits({ name: 'X25519', public: x.publicKey }, x.privateKey)).byteLength);
          log.push(await s.deriveBits({ name: 'X25519', public: ec.publicKey }, x.privateKey).catch(e => e.name));
        })().catch(e => log.push('failed: ' + e.name + ': ' + e.message));
        "#,
    );
    let expected = [
        "privateKey+publicKey",
        "public",
        "private",
        "verify",
        "sign",
        "P-256",
        "64",
        "true",
        "crv+d+ext+key_ops+kty+x+y",
        "InvalidAccessError",
        "64",
        "true",
        "32",
        "InvalidAccessError",
        "13",
        "true",
        "0",
        "AES-GCM256",
        "0",
        "32",
        "InvalidAccessError",
    ]
    .join("\n");
    assert_eq!(out, expected);
}

#[test]
fn rsa_generation_runs_off_thread_and_settles_through_the_driver() {
    let out = run_async(
        r#"
        const s = crypto.subtle;
        const data = new Uint8Array([1, 2, 3]);
        (async () => {
          const alg = { name: 'RSASSA-PKCS1-v1_5', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
          const pending = s.generateKey(alg, true, ['sign', 'verify']);
          log.push('generating');
          const k = await pending;
          const a = k.publicKey.algorithm;
          log.push(a.name, a.modulusLength, a.publicExponent instanceof Uint8Array, a.publicExponent.join(), a.hash.name);
          const sig = await s.sign('RSASSA-PKCS1-v1_5', k.privateKey, data);
          log.push(sig.byteLength, await s.verify('RSASSA-PKCS1-v1_5', k.publicKey, sig, data));
          log.push(Object.keys(await s.exportKey('jwk', k.privateKey)).join('+'));
          log.push(await s.generateKey({ ...alg, publicExponent: new Uint8Array([1]) }, true, ['sign']).catch(e => e.name));
          log.push(await s.generateKey({ ...alg, publicExponent: [1, 0, 1] }, true, ['sign']).catch(e => e.name));
        })().catch(e => log.push('failed: ' + e.name + ': ' + e.message));
        "#,
    );
    let expected = [
        "generating",
        "RSASSA-PKCS1-v1_5",
        "1024",
        "true",
        "1,0,1",
        "SHA-256",
        "128",
        "true",
        "alg+d+dp+dq+e+ext+key_ops+kty+n+p+q+qi",
        "OperationError",
        "TypeError",
    ]
    .join("\n");
    assert_eq!(out, expected);
}

#[test]
fn large_digests_off_thread_equal_small_ones_on_thread() {
    // 3 MiB of 'a' (over HEAVY_BYTES: a worker thread) and the same bytes as three 1 MiB
    // digests would differ; compare with the one-shot digest computed in Rust.
    let expected = crate::hash::Hash::Sha256.digest(&vec![b'a'; 3 << 20]);
    let expected: String = expected.iter().map(|b| format!("{b:02x}")).collect();
    let out = run_async(
        "crypto.subtle.digest('SHA-256', new Uint8Array(3 << 20).fill(97)).then(b => log.push( \
           [...new Uint8Array(b)].map(x => x.toString(16).padStart(2, '0')).join('')));",
    );
    assert_eq!(out, expected);
}

#[test]
fn crypto_keys_are_structured_cloneable() {
    let out = run_async(
        r#"
        const s = crypto.subtle;
        const data = new Uint8Array([1, 2, 3]);
        (async () => {
          const k = await s.generateKey({ name: 'HMAC', hash: 'SHA-384' }, false, ['sign', 'verify']);
          const c = structuredClone(k);
          log.push(c instanceof CryptoKey, c !== k, c.type, c.extractable, c.algorithm.hash.name,
            c.algorithm.length, c.usages.join('+'), c.algorithm !== k.algorithm);
          const mac = await s.sign('HMAC', k, data);
          log.push(await s.verify('HMAC', c, mac, data));
          const ec = await s.generateKey({ name: 'ECDSA', namedCurve: 'P-521' }, true, ['sign', 'verify']);
          const [pub, priv] = structuredClone([ec.publicKey, ec.privateKey]);
          const sig = await s.sign({ name: 'ECDSA', hash: 'SHA-512' }, priv, data);
          log.push(priv.type, pub.algorithm.namedCurve, await s.verify({ name: 'ECDSA', hash: 'SHA-512' }, pub, sig, data));
        })().catch(e => log.push('failed: ' + e.name + ': ' + e.message));
        "#,
    );
    assert_eq!(
        out,
        "true\ntrue\nsecret\nfalse\nSHA-384\n1024\nsign+verify\ntrue\ntrue\nprivate\nP-521\ntrue"
    );
}

#[test]
fn ed448_and_x448_from_script_with_context_and_structured_clone() {
    let out = run_async(
        r#"
        const s = crypto.subtle;
        const data = new Uint8Array([1, 2, 3]);
        (async () => {
          const ed = await s.generateKey('Ed448', true, ['sign', 'verify']);
          log.push(ed.publicKey.algorithm.name, ed.privateKey.usages.join('+'));
          const context = new Uint8Array([4, 5, 6]);
          const sig = await s.sign({ name: 'Ed448', context }, ed.privateKey, data);
          const [pub, priv] = structuredClone([ed.publicKey, ed.privateKey]);
          log.push(sig.byteLength, pub instanceof CryptoKey, priv.type,
            await s.verify({ name: 'Ed448', context }, pub, sig, data),
            await s.verify('Ed448', pub, sig, data),
            await s.verify({ name: 'Ed448', context: context.buffer }, ed.publicKey,
              await s.sign({ name: 'ed448', context: context.buffer }, priv, data), data));
          log.push(await s.sign({ name: 'Ed448', context: new Uint8Array(256) }, priv, data).catch(e => e.name));
          log.push(await s.sign({ name: 'Ed448', context: 'abc' }, priv, data).catch(e => e.name));
          log.push(await s.sign('Ed448', pub, data).catch(e => e.name));
          const jwk = await s.exportKey('jwk', ed.privateKey);
          log.push(Object.keys(jwk).join('+'), jwk.crv, jwk.alg);
          log.push((await s.exportKey('raw', ed.publicKey)).byteLength,
            (await s.exportKey('spki', ed.publicKey)).byteLength,
            (await s.exportKey('pkcs8', ed.privateKey)).byteLength);
          log.push(await s.importKey('raw', new Uint8Array(56), 'Ed448', true, ['verify']).catch(e => e.name));
          const a = await s.generateKey('X448', true, ['deriveBits', 'deriveKey']);
          const b = await s.generateKey({ name: 'X448' }, false, ['deriveBits']);
          const bClone = structuredClone(b.privateKey);
          const ab = new Uint8Array(await s.deriveBits({ name: 'X448', public: b.publicKey }, a.privateKey, null));
          const ba = new Uint8Array(await s.deriveBits({ name: 'X448', public: a.publicKey }, bClone, 448));
          log.push(ab.length, ab.join() === ba.join(), bClone.extractable);
          log.push(await s.deriveBits({ name: 'X448', public: a.publicKey }, b.privateKey, 456).catch(e => e.name));
          const zero = await s.importKey('raw', new Uint8Array(56), 'X448', true, []);
          log.push(await s.deriveBits({ name: 'X448', public: zero }, a.privateKey, 448).catch(e => e.name));
          const x25519 = await s.generateKey('X25519', true, ['deriveBits']);
          log.push(await s.deriveBits({ name: 'X448', public: x25519.publicKey }, a.privateKey).catch(e => e.name));
          const aes = await s.deriveKey({ name: 'X448', public: b.publicKey }, a.privateKey,
            { name: 'AES-GCM', length: 256 }, false, ['encrypt']);
          log.push(aes.algorithm.name + aes.algorithm.length);
          log.push(Object.keys(await s.exportKey('jwk', a.privateKey)).join('+'));
        })().catch(e => log.push('failed: ' + e.name + ': ' + e.message));
        "#,
    );
    let expected = [
        "Ed448",
        "sign",
        "114",
        "true",
        "private",
        "true",
        "false",
        "true",
        "OperationError",
        "TypeError",
        "InvalidAccessError",
        "alg+crv+d+ext+key_ops+kty+x",
        "Ed448",
        "Ed448",
        "57",
        "69",
        "73",
        "DataError",
        "56",
        "true",
        "false",
        "OperationError",
        "OperationError",
        "InvalidAccessError",
        "AES-GCM256",
        "crv+d+ext+key_ops+kty+x",
    ]
    .join("\n");
    assert_eq!(out, expected);
}

#[test]
fn overlapped_large_digests_equal_one_shot_digests() {
    // Over HEAVY_BYTES with a string algorithm: copied in pieces that a worker hashes. A view
    // at an offset, every hash, and a change to the buffer right after the call (not seen).
    let bytes: Vec<u8> = (0..(5usize << 20) + 3).map(|i| (i % 251) as u8).collect();
    let view = &bytes[7..(5 << 20) + 1];
    let expected: Vec<String> = [
        crate::hash::Hash::Sha1,
        crate::hash::Hash::Sha256,
        crate::hash::Hash::Sha384,
        crate::hash::Hash::Sha512,
    ]
    .iter()
    .map(|h| h.digest(view).iter().map(|b| format!("{b:02x}")).collect())
    .collect();
    let out = run_async(
        r#"
        const all = new Uint8Array((5 << 20) + 3);
        for (let i = 0; i < 251; i++) all[i] = i;
        for (let n = 251; n < all.length; n *= 2) all.copyWithin(n, 0, n);
        const view = new Uint8Array(all.buffer, 7, (5 << 20) - 6);
        const hex = (b) => [...new Uint8Array(b)].map(x => x.toString(16).padStart(2, '0')).join('');
        const pending = ['SHA-1', 'sha-256', 'SHA-384', 'SHA-512'].map(h => crypto.subtle.digest(h, view));
        all.fill(0);
        Promise.all(pending).then(ds => ds.forEach(d => log.push(hex(d))),
          e => log.push('failed: ' + e.name));
        "#,
    );
    assert_eq!(out, expected.join("\n"));
}
