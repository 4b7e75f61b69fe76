use super::*;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
        true,
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
        true,
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
    let back = okp_import(true, KeyFormat::Pkcs8, &KeyData::Bytes(pkcs8), true, sign).unwrap();
    assert_eq!(back.material, secret);
    let x_spki = okp_import(
        false,
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
        true,
        KeyFormat::Spki,
        &KeyData::Bytes(spki),
        true,
        Usages::of(&["verify"]),
    );
    assert_eq!(wrong.unwrap_err().name, "DataError");
}
