//! Unit tests of the families' operations on bytes (known-answer vectors and round trips).

use super::aes::{aes_cbc_decrypt, aes_cbc_encrypt, aes_ctr, aes_gcm, aes_kw_unwrap, aes_kw_wrap};
use super::ec::{ec_generate, ec_import, ecdsa_sign, ecdsa_verify};
use super::hmac::{hmac_sign, hmac_verify};
use super::okp::{
    ed25519_sign, ed25519_verify, ed448_sign, ed448_verify, okp_generate, okp_import, Okp,
};
use super::pki::parts;
use super::rsa::{rsa_generate, rsa_generate_check, rsa_import, rsa_oaep, rsa_sign, rsa_verify};
use super::{ec, okp, rsa};
use crate::failure::Outcome;
use crate::hash::Hash;
use crate::jwk::{base64url_encode, Exported, Jwk, KeyData, KeyFormat};
use crate::names::{Curve, RsaScheme};
use crate::records::{KeyAlgorithm, KeyParts, KeyType, Usages};
use serde_json::Value;

/// The export key operation of an asymmetric key's family (without the [[extractable]]
/// check).
fn export(format: KeyFormat, key: &KeyParts) -> Option<Outcome<Exported>> {
    Some(match key.algorithm {
        KeyAlgorithm::Ec { .. } => ec::export(format, key),
        KeyAlgorithm::Rsa { .. } => rsa::export(format, key),
        _ => okp::export(format, key),
    })
}

/// ECDH, X25519 or X448 derive bits, by the key's family.
fn ecdh_derive(key: &KeyParts, public: &KeyParts, length: Option<u32>) -> Outcome<Vec<u8>> {
    match key.algorithm {
        KeyAlgorithm::Ec { .. } => ec::ecdh_derive(key, public, length),
        _ => okp::okp_derive(key, public, length),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn sha256_of_abc() {
    assert_eq!(
        hex(&Hash::Sha256.digest(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn hmac_sha256_rfc4231_case_2() {
    let mac = hmac_sign(Hash::Sha256, b"Jefe", b"what do ya want for nothing?").unwrap();
    assert_eq!(
        hex(&mac),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
    assert!(hmac_verify(Hash::Sha256, b"Jefe", b"what do ya want for nothing?", &mac).unwrap());
    assert!(!hmac_verify(Hash::Sha256, b"Jefe", b"what do ya want for nothing!", &mac).unwrap());
}

#[test]
fn ctr_counter_wraps_within_its_length() {
    let key = [7u8; 16];
    // The low 8 bits are the counter, at 0xff: the second block's counter is 0x00, with the
    // nonce bits unchanged.
    let mut counter = [0x11u8; 16];
    counter[15] = 0xff;
    let data = [0u8; 32];
    let out = aes_ctr(&key, &counter, 8, &data).unwrap();
    let mut wrapped = counter;
    wrapped[15] = 0;
    let second = aes_ctr(&key, &wrapped, 8, &[0u8; 16]).unwrap();
    assert_eq!(&out[16..], &second[..]);
    // 257 blocks do not fit an 8-bit counter.
    assert_eq!(
        aes_ctr(&key, &counter, 8, &[0u8; 16 * 257])
            .unwrap_err()
            .name,
        "OperationError"
    );
}

#[test]
fn gcm_and_kw_round_trip() {
    let key = [1u8; 32];
    let sealed = aes_gcm(&key, &[2; 12], b"aad", 128, b"hello", true).unwrap();
    assert_eq!(sealed.len(), 5 + 16);
    assert_eq!(
        aes_gcm(&key, &[2; 12], b"aad", 128, &sealed, false).unwrap(),
        b"hello"
    );
    assert_eq!(
        aes_gcm(&key, &[2; 12], b"aaD", 128, &sealed, false)
            .unwrap_err()
            .name,
        "OperationError"
    );
    let wrapped = aes_kw_wrap(&key, &[3; 16]).unwrap();
    assert_eq!(aes_kw_unwrap(&key, &wrapped).unwrap(), [3; 16]);
    let cbc = aes_cbc_encrypt(&key[..16], &[0; 16], b"x").unwrap();
    assert_eq!(aes_cbc_decrypt(&key[..16], &[0; 16], &cbc).unwrap(), b"x");
}

#[test]
fn gcm_short_tags_are_the_full_tag_truncated() {
    let key = [9u8; 16];
    let full = aes_gcm(&key, &[4; 12], b"a", 128, b"data", true).unwrap();
    for bits in [32u8, 64] {
        let n = usize::from(bits / 8);
        let short = aes_gcm(&key, &[4; 12], b"a", bits, b"data", true).unwrap();
        assert_eq!(&short[..], &full[..4 + n]);
        assert_eq!(
            aes_gcm(&key, &[4; 12], b"a", bits, &short, false).unwrap(),
            b"data"
        );
        let mut bad = short.clone();
        bad[0] ^= 1;
        assert_eq!(
            aes_gcm(&key, &[4; 12], b"a", bits, &bad, false)
                .unwrap_err()
                .name,
            "OperationError"
        );
    }
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn key(key_type: KeyType, algorithm: KeyAlgorithm, usages: &[&str], material: Vec<u8>) -> KeyParts {
    parts(key_type, algorithm, true, Usages::of(usages), material)
}

#[test]
fn ed25519_rfc8032_test_1() {
    let secret = unhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    let public = unhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    let signature = ed25519_sign(&secret, b"").unwrap();
    assert_eq!(
        hex(&signature),
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    );
    assert!(ed25519_verify(&public, b"", &signature));
    assert!(!ed25519_verify(&public, b"x", &signature));
    // A truncated signature or key does not verify (no error).
    assert!(!ed25519_verify(&public, b"", &signature[..63]));
    assert!(!ed25519_verify(&public[..31], b"", &signature));
}

#[test]
fn x25519_rfc7748_shared_secret_and_length_handling() {
    let alice = unhex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    let bob_public = unhex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
    let private = key(
        KeyType::Private,
        KeyAlgorithm::X25519,
        &["deriveBits"],
        alice,
    );
    let public = key(KeyType::Public, KeyAlgorithm::X25519, &[], bob_public);
    let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";
    assert_eq!(hex(&ecdh_derive(&private, &public, None).unwrap()), shared);
    assert_eq!(
        hex(&ecdh_derive(&private, &public, Some(256)).unwrap()),
        shared
    );
    // 12 bits: the second byte keeps its high nibble only.
    assert_eq!(
        hex(&ecdh_derive(&private, &public, Some(12)).unwrap()),
        "4a50"
    );
    assert_eq!(
        ecdh_derive(&private, &public, Some(0)).unwrap(),
        Vec::<u8>::new()
    );
    let too_many = ecdh_derive(&private, &public, Some(264)).unwrap_err();
    assert_eq!(too_many.name, "OperationError");
    // A small-order public key (all zeros) gives the all-zero secret: OperationError.
    let zero = key(KeyType::Public, KeyAlgorithm::X25519, &[], vec![0; 32]);
    assert_eq!(
        ecdh_derive(&private, &zero, None).unwrap_err().name,
        "OperationError"
    );
    // The base key must be private, the public member public.
    assert_eq!(
        ecdh_derive(&public, &public, None).unwrap_err().name,
        "InvalidAccessError"
    );
    assert_eq!(
        ecdh_derive(&private, &private, None).unwrap_err().name,
        "InvalidAccessError"
    );
}

#[test]
fn ecdh_agrees_on_every_curve_and_checks_the_curve() {
    for curve in [Curve::P256, Curve::P384, Curve::P521] {
        let (a_pub, a_priv) =
            ec_generate(true, curve.name(), true, Usages::of(&["deriveBits"])).unwrap();
        let (b_pub, b_priv) =
            ec_generate(true, curve.name(), true, Usages::of(&["deriveBits"])).unwrap();
        let ab = ecdh_derive(&a_priv, &b_pub, None).unwrap();
        let ba = ecdh_derive(&b_priv, &a_pub, None).unwrap();
        assert_eq!(ab, ba);
        assert_eq!(ab.len(), curve.field_bytes());
        assert_eq!(a_pub.usages, Usages::default());
        assert_eq!(a_priv.usages, Usages::of(&["deriveBits"]));
    }
    let (_, p256) = ec_generate(true, "P-256", true, Usages::of(&["deriveBits"])).unwrap();
    let (p384, _) = ec_generate(true, "P-384", true, Usages::of(&["deriveBits"])).unwrap();
    assert_eq!(
        ecdh_derive(&p256, &p384, None).unwrap_err().name,
        "InvalidAccessError"
    );
    let unknown = ec_generate(true, "P-192", true, Usages::of(&["deriveBits"])).unwrap_err();
    assert_eq!(unknown.name, "NotSupportedError");
    let bad_usage = ec_generate(true, "P-256", true, Usages::of(&["sign"])).unwrap_err();
    assert_eq!(bad_usage.name, "SyntaxError");
}

#[test]
fn ecdsa_signatures_are_r_s_and_verify_with_every_hash() {
    for curve in [Curve::P256, Curve::P384, Curve::P521] {
        let (public, private) =
            ec_generate(false, curve.name(), true, Usages::of(&["sign", "verify"])).unwrap();
        for hash in [Hash::Sha1, Hash::Sha256, Hash::Sha384, Hash::Sha512] {
            let signature = ecdsa_sign(curve, hash, &private.material, b"message").unwrap();
            assert_eq!(signature.len(), 2 * curve.field_bytes());
            assert!(ecdsa_verify(curve, hash, &public.material, b"message", &signature).unwrap());
            assert!(!ecdsa_verify(curve, hash, &public.material, b"massage", &signature).unwrap());
            assert!(
                !ecdsa_verify(curve, hash, &public.material, b"message", &signature[1..]).unwrap()
            );
        }
    }
}

#[test]
fn ec_keys_round_trip_through_every_format() {
    let (public, private) =
        ec_generate(false, "P-384", true, Usages::of(&["sign", "verify"])).unwrap();
    let Exported::Bytes(spki) = export(KeyFormat::Spki, &public).unwrap().unwrap() else {
        panic!()
    };
    let Exported::Bytes(raw) = export(KeyFormat::Raw, &public).unwrap().unwrap() else {
        panic!()
    };
    let Exported::Bytes(pkcs8) = export(KeyFormat::Pkcs8, &private).unwrap().unwrap() else {
        panic!()
    };
    let verify = Usages::of(&["verify"]);
    let sign = Usages::of(&["sign"]);
    let from_spki = ec_import(
        false,
        "P-384",
        KeyFormat::Spki,
        &KeyData::Bytes(spki.clone()),
        true,
        verify,
    )
    .unwrap();
    let from_raw = ec_import(
        false,
        "P-384",
        KeyFormat::Raw,
        &KeyData::Bytes(raw),
        true,
        verify,
    )
    .unwrap();
    let from_pkcs8 = ec_import(
        false,
        "P-384",
        KeyFormat::Pkcs8,
        &KeyData::Bytes(pkcs8),
        true,
        sign,
    )
    .unwrap();
    assert_eq!(from_spki.material, public.material);
    assert_eq!(from_raw.material, public.material);
    assert_eq!(from_pkcs8.material, private.material);
    // A P-384 key is not a P-256 key; an ECDSA usage is not an ECDH one.
    let mismatch = ec_import(
        false,
        "P-256",
        KeyFormat::Spki,
        &KeyData::Bytes(spki.clone()),
        true,
        verify,
    );
    assert_eq!(mismatch.unwrap_err().name, "DataError");
    let usage = ec_import(
        true,
        "P-384",
        KeyFormat::Spki,
        &KeyData::Bytes(spki.clone()),
        true,
        verify,
    );
    assert_eq!(usage.unwrap_err().name, "SyntaxError");
    // Truncated DER is a DataError; a private key does not export to spki.
    let truncated = ec_import(
        false,
        "P-384",
        KeyFormat::Spki,
        &KeyData::Bytes(spki[..40].to_vec()),
        true,
        verify,
    );
    assert_eq!(truncated.unwrap_err().name, "DataError");
    let wrong_type = export(KeyFormat::Spki, &private).unwrap().unwrap_err();
    assert_eq!(wrong_type.name, "InvalidAccessError");
}

#[test]
fn rsa_sign_verify_encrypt_decrypt_and_formats() {
    let usages = Usages::of(&["sign", "verify"]);
    let e = rsa_generate_check(RsaScheme::Pss, 1024, &[1, 0, 1], usages).unwrap();
    let (public, private) =
        rsa_generate(RsaScheme::Pss, Hash::Sha256, 1024, &e, true, usages).unwrap();
    let KeyAlgorithm::Rsa {
        modulus_length,
        public_exponent,
        ..
    } = &public.algorithm
    else {
        panic!("not an RSA algorithm");
    };
    assert_eq!(
        (*modulus_length, public_exponent.as_slice()),
        (1024, &[1u8, 0, 1][..])
    );
    for salt in [None, Some(0), Some(32)] {
        let signature = rsa_sign(Hash::Sha256, salt, &private.material, b"data").unwrap();
        assert_eq!(signature.len(), 128);
        assert!(rsa_verify(Hash::Sha256, salt, &public.material, b"data", &signature).unwrap());
        assert!(!rsa_verify(Hash::Sha256, salt, &public.material, b"date", &signature).unwrap());
    }
    // The salt must fit the modulus.
    assert_eq!(
        rsa_sign(Hash::Sha256, Some(200), &private.material, b"d")
            .unwrap_err()
            .name,
        "OperationError"
    );
    // OAEP with and without a label, public key to encrypt, private key to decrypt.
    let oaep_pub = KeyParts {
        algorithm: KeyAlgorithm::Rsa {
            scheme: RsaScheme::Oaep,
            modulus_length: 1024,
            public_exponent: vec![1, 0, 1],
            hash: Hash::Sha1,
        },
        ..public.clone()
    };
    let oaep_priv = KeyParts {
        algorithm: oaep_pub.algorithm.clone(),
        ..private.clone()
    };
    for label in [None, Some(&b"label"[..])] {
        let c = rsa_oaep(Hash::Sha1, label, &oaep_pub, b"secret", true).unwrap();
        assert_eq!(
            rsa_oaep(Hash::Sha1, label, &oaep_priv, &c, false).unwrap(),
            b"secret"
        );
        assert_eq!(
            rsa_oaep(Hash::Sha1, label, &oaep_pub, &c, false)
                .unwrap_err()
                .name,
            "InvalidAccessError"
        );
    }
    // spki / pkcs8 / jwk round trips keep the key.
    let Exported::Bytes(spki) = export(KeyFormat::Spki, &public).unwrap().unwrap() else {
        panic!()
    };
    let Exported::Bytes(pkcs8) = export(KeyFormat::Pkcs8, &private).unwrap().unwrap() else {
        panic!()
    };
    let Exported::Jwk(jwk) = export(KeyFormat::Jwk, &private).unwrap().unwrap() else {
        panic!()
    };
    assert_eq!(jwk.get("alg").and_then(|v| v.as_str()), Some("PS256"));
    let s = |name: &str| jwk.get(name).and_then(|v| v.as_str()).map(str::to_owned);
    let jwk = Jwk {
        kty: s("kty"),
        n: s("n"),
        e: s("e"),
        d: s("d"),
        p: s("p"),
        q: s("q"),
        dp: s("dp"),
        dq: s("dq"),
        qi: s("qi"),
        alg: s("alg"),
        ..Jwk::default()
    };
    let sign = Usages::of(&["sign"]);
    let verify = Usages::of(&["verify"]);
    let a = rsa_import(
        RsaScheme::Pss,
        Hash::Sha256,
        KeyFormat::Spki,
        &KeyData::Bytes(spki),
        true,
        verify,
    )
    .unwrap();
    let b = rsa_import(
        RsaScheme::Pss,
        Hash::Sha256,
        KeyFormat::Pkcs8,
        &KeyData::Bytes(pkcs8),
        true,
        sign,
    )
    .unwrap();
    let c = rsa_import(
        RsaScheme::Pss,
        Hash::Sha256,
        KeyFormat::Jwk,
        &KeyData::Jwk(Box::new(jwk.clone())),
        true,
        sign,
    )
    .unwrap();
    assert_eq!(a.material, public.material);
    assert_eq!(b.material, private.material);
    assert_eq!(c.material, private.material);
    // The JWK alg must match the hash.
    let wrong = rsa_import(
        RsaScheme::Pss,
        Hash::Sha384,
        KeyFormat::Jwk,
        &KeyData::Jwk(Box::new(jwk)),
        true,
        sign,
    );
    assert_eq!(wrong.unwrap_err().name, "DataError");
    // Even exponents and tiny moduli are OperationErrors before any generation.
    assert_eq!(
        rsa_generate_check(RsaScheme::Pss, 1024, &[1, 0, 0], usages)
            .unwrap_err()
            .name,
        "OperationError"
    );
    assert_eq!(
        rsa_generate_check(RsaScheme::Pss, 100, &[1, 0, 1], usages)
            .unwrap_err()
            .name,
        "OperationError"
    );
    assert_eq!(
        rsa_generate_check(RsaScheme::Pss, 1024, &[1, 0, 1], Usages::of(&["encrypt"]))
            .unwrap_err()
            .name,
        "SyntaxError"
    );
}

#[test]
fn okp_jwk_import_checks_the_pair() {
    let secret = unhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    let public = unhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    let jwk = |x: &[u8]| Jwk {
        kty: Some("OKP".into()),
        crv: Some("Ed25519".into()),
        d: Some(base64url_encode(&secret)),
        x: Some(base64url_encode(x)),
        ..Jwk::default()
    };
    let sign = Usages::of(&["sign"]);
    let ok = okp_import(
        Okp::Ed25519,
        KeyFormat::Jwk,
        &KeyData::Jwk(Box::new(jwk(&public))),
        true,
        sign,
    )
    .unwrap();
    assert_eq!(ok.material, secret);
    let mut other = public.clone();
    other[0] ^= 1;
    let bad = okp_import(
        Okp::Ed25519,
        KeyFormat::Jwk,
        &KeyData::Jwk(Box::new(jwk(&other))),
        true,
        sign,
    );
    assert_eq!(bad.unwrap_err().name, "DataError");
    // pkcs8 and spki round trips.
    let Exported::Bytes(pkcs8) = export(KeyFormat::Pkcs8, &ok).unwrap().unwrap() else {
        panic!()
    };
    assert_eq!(
        &pkcs8[..16],
        &[48, 46, 2, 1, 0, 48, 5, 6, 3, 43, 101, 112, 4, 34, 4, 32]
    );
    let back = okp_import(
        Okp::Ed25519,
        KeyFormat::Pkcs8,
        &KeyData::Bytes(pkcs8),
        true,
        sign,
    )
    .unwrap();
    assert_eq!(back.material, secret);
    let x_spki = okp_import(
        Okp::X25519,
        KeyFormat::Raw,
        &KeyData::Bytes(public.clone()),
        true,
        Usages::default(),
    )
    .unwrap();
    let Exported::Bytes(spki) = export(KeyFormat::Spki, &x_spki).unwrap().unwrap() else {
        panic!()
    };
    // An X25519 key is not an Ed25519 key.
    let wrong = okp_import(
        Okp::Ed25519,
        KeyFormat::Spki,
        &KeyData::Bytes(spki),
        true,
        Usages::of(&["verify"]),
    );
    assert_eq!(wrong.unwrap_err().name, "DataError");
}

/// RFC 8032 section 7.4 "-----blank" and "1 octet (with context)": Ed448 signs
/// deterministically, so the signatures are the RFC's.
#[test]
fn ed448_rfc8032_vectors_with_and_without_context() {
    let blank_secret = unhex("6c82a562cb808d10d632be89c8513ebf6c929f34ddfa8c9f63c9960ef6e348a3528c8a3fcc2f044e39a3fc5b94492f8f032e7549a20098f95b");
    let blank_public = unhex("5fd7449b59b461fd2ce787ec616ad46a1da1342485a70e1f8a0ea75d80e96778edf124769b46c7061bd6783df1e50f6cd1fa1abeafe8256180");
    assert_eq!(Okp::Ed448.public_of(&blank_secret).unwrap(), blank_public);
    let signature = ed448_sign(&blank_secret, None, b"").unwrap();
    assert_eq!(
        hex(&signature),
        "533a37f6bbe457251f023c0d88f976ae2dfb504a843e34d2074fd823d41a591f2b233f034f628281f2fd7a22ddd47d7828c59bd0a21bfd3980ff0d2028d4b18a9df63e006c5d1c2d345b925d8dc00b4104852db99ac5c7cdda8530a113a0f4dbb61149f05a7363268c71d95808ff2e652600"
    );
    assert!(ed448_verify(&blank_public, None, b"", &signature).unwrap());
    // An absent context is the empty context.
    assert!(ed448_verify(&blank_public, Some(b""), b"", &signature).unwrap());

    let secret = unhex("c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e");
    let public = unhex("43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480");
    let signature = ed448_sign(&secret, Some(b"foo"), &[0x03]).unwrap();
    assert_eq!(
        hex(&signature),
        "d4f8f6131770dd46f40867d6fd5d5055de43541f8c5e35abbcd001b32a89f7d2151f7647f11d8ca2ae279fb842d607217fce6e042f6815ea000c85741de5c8da1144a6a1aba7f96de42505d7a7298524fda538fccbbb754f578c1cad10d54d0d5428407e85dcbc98a49155c13764e66c3c00"
    );
    assert!(ed448_verify(&public, Some(b"foo"), &[0x03], &signature).unwrap());
    // The context is part of what is signed.
    assert!(!ed448_verify(&public, None, &[0x03], &signature).unwrap());
    assert!(!ed448_verify(&public, Some(b"fop"), &[0x03], &signature).unwrap());
    assert!(!ed448_verify(&public, Some(b"foo"), &[0x04], &signature).unwrap());
    // A truncated signature or key does not verify (no error).
    assert!(!ed448_verify(&public, Some(b"foo"), &[0x03], &signature[..113]).unwrap());
    assert!(!ed448_verify(&public[..56], Some(b"foo"), &[0x03], &signature).unwrap());
}

#[test]
fn ed448_round_trip_with_context_and_context_limits() {
    let (public, private) =
        okp_generate(Okp::Ed448, true, Usages::of(&["sign", "verify"])).unwrap();
    assert_eq!((public.material.len(), private.material.len()), (57, 57));
    assert_eq!(public.algorithm, KeyAlgorithm::Ed448);
    assert_eq!(public.usages, Usages::of(&["verify"]));
    assert_eq!(private.usages, Usages::of(&["sign"]));
    let context = [7u8; 255];
    let signature = ed448_sign(&private.material, Some(&context), b"message").unwrap();
    assert_eq!(signature.len(), 114);
    assert!(ed448_verify(&public.material, Some(&context), b"message", &signature).unwrap());
    assert!(!ed448_verify(
        &public.material,
        Some(&context[1..]),
        b"message",
        &signature
    )
    .unwrap());
    // A context over 255 bytes is an OperationError, signing or verifying.
    let long = [7u8; 256];
    assert_eq!(
        ed448_sign(&private.material, Some(&long), b"message")
            .unwrap_err()
            .name,
        "OperationError"
    );
    assert_eq!(
        ed448_verify(&public.material, Some(&long), b"message", &signature)
            .unwrap_err()
            .name,
        "OperationError"
    );
    // A private key of the wrong length is a DataError.
    assert_eq!(
        ed448_sign(&private.material[..56], None, b"m")
            .unwrap_err()
            .name,
        "DataError"
    );
    // A small-order public key, (0, -1) of order 2, never verifies; nor does R of small
    // order (the signature of another key with its R replaced).
    let mut order_two = vec![0xffu8; 57];
    order_two[0] = 0xfe;
    order_two[28] = 0xfe;
    order_two[56] = 0;
    assert!(!ed448_verify(&order_two, None, b"message", &signature).unwrap());
    let mut small_r = signature.clone();
    small_r[..57].copy_from_slice(&order_two);
    assert!(!ed448_verify(&public.material, Some(&context), b"message", &small_r).unwrap());
    // The identity (y = 1) is refused as a key too.
    let mut identity = vec![0u8; 57];
    identity[0] = 1;
    assert!(!ed448_verify(&identity, None, b"message", &signature).unwrap());
}

#[test]
fn x448_rfc7748_vectors_and_length_handling() {
    // RFC 7748 section 5.2, the first X448 vector.
    let scalar = unhex("3d262fddf9ec8e88495266fea19a34d28882acef045104d0d1aae121700a779c984c24f8cdd78fbff44943eba368f54b29259a4f1c600ad3");
    let u = unhex("06fce640fa3487bfda5f6cf2d5263f8aad88334cbd07437f020f08f9814dc031ddbdc38c19c6da2583fa5429db94ada18aa7a7fb4ef8a086");
    let private = key(
        KeyType::Private,
        KeyAlgorithm::X448,
        &["deriveBits"],
        scalar,
    );
    let public = key(KeyType::Public, KeyAlgorithm::X448, &[], u);
    assert_eq!(
        hex(&ecdh_derive(&private, &public, None).unwrap()),
        "ce3e4ff95a60dc6697da1db1d85e6afbdf79b50a2412d7546d5f239fe14fbaadeb445fc66a01b0779d98223961111e21766282f73dd96b6f"
    );
    // RFC 7748 section 6.2: Alice's and Bob's public keys and their shared secret.
    let alice = unhex("9a8f4925d1519f5775cf46b04b5800d4ee9ee8bae8bc5565d498c28dd9c9baf574a9419744897391006382a6f127ab1d9ac2d8c0a598726b");
    let bob = unhex("1c306a7ac2a0e2e0990b294470cba339e6453772b075811d8fad0d1d6927c120bb5ee8972b0d3e21374c9c921b09d1b0366f10b65173992d");
    let alice_public = Okp::X448.public_of(&alice).unwrap();
    let bob_public = Okp::X448.public_of(&bob).unwrap();
    assert_eq!(hex(&alice_public), "9b08f7cc31b7e3e67d22d5aea121074a273bd2b83de09c63faa73d2c22c5d9bbc836647241d953d40c5b12da88120d53177f80e532c41fa0");
    assert_eq!(hex(&bob_public), "3eb7a829b0cd20f5bcfc0b599b6feccf6da4627107bdb0d4f345b43027d8b972fc3e34fb4232a13ca706dcb57aec3dae07bdc1c67bf33609");
    let shared = "07fff4181ac6cc95ec1c16a94a0f74d12da232ce40a77552281d282bb60c0b56fd2464c335543936521c24403085d59a449a5037514a879d";
    let alice_key = key(KeyType::Private, KeyAlgorithm::X448, &["deriveBits"], alice);
    let bob_key = key(KeyType::Private, KeyAlgorithm::X448, &["deriveBits"], bob);
    let alice_public = key(KeyType::Public, KeyAlgorithm::X448, &[], alice_public);
    let bob_public = key(KeyType::Public, KeyAlgorithm::X448, &[], bob_public);
    assert_eq!(
        hex(&ecdh_derive(&alice_key, &bob_public, None).unwrap()),
        shared
    );
    assert_eq!(
        hex(&ecdh_derive(&bob_key, &alice_public, Some(448)).unwrap()),
        shared
    );
    // 12 bits: the second byte keeps its high nibble only.
    assert_eq!(
        hex(&ecdh_derive(&alice_key, &bob_public, Some(12)).unwrap()),
        "07f0"
    );
    assert_eq!(
        ecdh_derive(&alice_key, &bob_public, Some(456))
            .unwrap_err()
            .name,
        "OperationError"
    );
    // u = 0 (a small-order point) gives the all-zero secret: an OperationError.
    let zero = key(KeyType::Public, KeyAlgorithm::X448, &[], vec![0; 56]);
    assert_eq!(
        ecdh_derive(&alice_key, &zero, None).unwrap_err().name,
        "OperationError"
    );
    // An X25519 public key is not an X448 one.
    let x25519 = key(KeyType::Public, KeyAlgorithm::X25519, &[], vec![9; 32]);
    assert_eq!(
        ecdh_derive(&alice_key, &x25519, None).unwrap_err().name,
        "InvalidAccessError"
    );
    // The public member must be a public key, the base key a private one.
    assert_eq!(
        ecdh_derive(&alice_key, &bob_key, None).unwrap_err().name,
        "InvalidAccessError"
    );
    assert_eq!(
        ecdh_derive(&bob_public, &alice_public, None)
            .unwrap_err()
            .name,
        "InvalidAccessError"
    );
}

#[test]
fn ed448_and_x448_import_export_and_bad_lengths() {
    let secret = unhex("c4eab05d357007c632f3dbb48489924d552b08fe0c353a0d4a1f00acda2c463afbea67c5e8d2877c5e3bc397a659949ef8021e954e0a12274e");
    let public = unhex("43ba28f430cdff456ae531545f7ecd0ac834a55d9358c0372bfa0c6c6798c0866aea01eb00742802b8438ea4cb82169c235160627b4c3a9480");
    let sign = Usages::of(&["sign"]);
    let verify = Usages::of(&["verify"]);
    let bytes = |b: &[u8]| KeyData::Bytes(b.to_vec());
    // raw: 57 bytes for Ed448, 56 for X448; anything else is a DataError.
    let raw = okp_import(Okp::Ed448, KeyFormat::Raw, &bytes(&public), true, verify).unwrap();
    assert_eq!(raw.material, public);
    for len in [0, 56, 58] {
        let bad = okp_import(
            Okp::Ed448,
            KeyFormat::Raw,
            &bytes(&vec![1; len]),
            true,
            verify,
        );
        assert_eq!(
            bad.unwrap_err().name,
            "DataError",
            "Ed448 raw of {len} bytes"
        );
    }
    for len in [32, 55, 57] {
        let bad = okp_import(
            Okp::X448,
            KeyFormat::Raw,
            &bytes(&vec![1; len]),
            true,
            Usages::default(),
        );
        assert_eq!(
            bad.unwrap_err().name,
            "DataError",
            "X448 raw of {len} bytes"
        );
    }
    // A raw import is public only: a "sign" usage is a SyntaxError.
    let bad = okp_import(Okp::Ed448, KeyFormat::Raw, &bytes(&public), true, sign);
    assert_eq!(bad.unwrap_err().name, "SyntaxError");
    // spki and pkcs8 round trips, with RFC 8410's id-Ed448 (1.3.101.113).
    let Exported::Bytes(spki) = export(KeyFormat::Spki, &raw).unwrap().unwrap() else {
        panic!()
    };
    assert_eq!(&spki[..12], &[48, 67, 48, 5, 6, 3, 43, 101, 113, 3, 58, 0]);
    let back = okp_import(Okp::Ed448, KeyFormat::Spki, &bytes(&spki), true, verify).unwrap();
    assert_eq!(back.material, public);
    let private = key(
        KeyType::Private,
        KeyAlgorithm::Ed448,
        &["sign"],
        secret.clone(),
    );
    let Exported::Bytes(pkcs8) = export(KeyFormat::Pkcs8, &private).unwrap().unwrap() else {
        panic!()
    };
    assert_eq!(
        &pkcs8[..16],
        &[48, 71, 2, 1, 0, 48, 5, 6, 3, 43, 101, 113, 4, 59, 4, 57]
    );
    let back = okp_import(Okp::Ed448, KeyFormat::Pkcs8, &bytes(&pkcs8), true, sign).unwrap();
    assert_eq!(back.material, secret);
    // An Ed448 key is not an X448 key, nor an Ed25519 one.
    for okp in [Okp::X448, Okp::Ed25519] {
        let wrong = okp_import(
            okp,
            KeyFormat::Pkcs8,
            &bytes(&pkcs8),
            true,
            Usages::default(),
        );
        assert_eq!(wrong.unwrap_err().name, "DataError");
    }
    // A private key with the wrong length inside a valid PKCS #8 structure is a DataError.
    let short = key(
        KeyType::Private,
        KeyAlgorithm::Ed448,
        &["sign"],
        secret[..56].to_vec(),
    );
    let Exported::Bytes(short) = export(KeyFormat::Pkcs8, &short).unwrap().unwrap() else {
        panic!()
    };
    let bad = okp_import(Okp::Ed448, KeyFormat::Pkcs8, &bytes(&short), true, sign);
    assert_eq!(bad.unwrap_err().name, "DataError");
    // jwk: crv Ed448, alg Ed448 or EdDSA, x must be d's public key.
    let Exported::Jwk(jwk) = export(KeyFormat::Jwk, &private).unwrap().unwrap() else {
        panic!()
    };
    assert_eq!(jwk.get("alg"), Some(&Value::String("Ed448".into())));
    assert_eq!(jwk.get("crv"), Some(&Value::String("Ed448".into())));
    assert_eq!(
        jwk.get("x"),
        Some(&Value::String(base64url_encode(&public)))
    );
    assert_eq!(
        jwk.get("d"),
        Some(&Value::String(base64url_encode(&secret)))
    );
    let okp_jwk = |crv: &str, alg: Option<&str>, x: &[u8]| Jwk {
        kty: Some("OKP".into()),
        crv: Some(crv.into()),
        alg: alg.map(Into::into),
        d: Some(base64url_encode(&secret)),
        x: Some(base64url_encode(x)),
        ..Jwk::default()
    };
    let jwk_import = |okp: Okp, jwk: Jwk| {
        okp_import(
            okp,
            KeyFormat::Jwk,
            &KeyData::Jwk(Box::new(jwk)),
            true,
            sign,
        )
    };
    for alg in [None, Some("Ed448"), Some("EdDSA")] {
        let ok = jwk_import(Okp::Ed448, okp_jwk("Ed448", alg, &public)).unwrap();
        assert_eq!(ok.material, secret);
    }
    for jwk in [
        okp_jwk("Ed448", Some("Ed25519"), &public),
        okp_jwk("X448", None, &public),
        okp_jwk("Ed448", None, &public[1..]),
        okp_jwk("Ed448", None, &secret),
    ] {
        assert_eq!(jwk_import(Okp::Ed448, jwk).unwrap_err().name, "DataError");
    }
    // X448: no alg in its JWK; spki with id-X448 (1.3.101.111).
    let (x_public, x_private) = okp_generate(Okp::X448, true, Usages::of(&["deriveBits"])).unwrap();
    assert_eq!(
        (x_public.material.len(), x_private.material.len()),
        (56, 56)
    );
    assert!(x_public.usages.is_empty());
    let Exported::Jwk(jwk) = export(KeyFormat::Jwk, &x_private).unwrap().unwrap() else {
        panic!()
    };
    assert!(jwk.get("alg").is_none());
    assert_eq!(jwk.get("crv"), Some(&Value::String("X448".into())));
    let Exported::Bytes(spki) = export(KeyFormat::Spki, &x_public).unwrap().unwrap() else {
        panic!()
    };
    assert_eq!(&spki[..12], &[48, 66, 48, 5, 6, 3, 43, 101, 111, 3, 57, 0]);
    // Only a public key exports to raw or spki, only a private one to pkcs8.
    assert_eq!(
        export(KeyFormat::Raw, &x_private)
            .unwrap()
            .unwrap_err()
            .name,
        "InvalidAccessError"
    );
    assert_eq!(
        export(KeyFormat::Pkcs8, &x_public)
            .unwrap()
            .unwrap_err()
            .name,
        "InvalidAccessError"
    );
}
