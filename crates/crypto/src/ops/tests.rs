use super::*;

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
