//! A quick check that the laid corpus is the pinned one before running anything.
//!
//! `scripts/fetch-wpt` verifies content (git blob SHA-1); here we only check that every file
//! in `wpt/pin.txt` is present with its pinned size, so a missing or partly laid corpus is a
//! clear error instead of a run with fewer (or zero) tests.

use std::path::Path;

/// `(path, size)` for each line of a pin file.
pub fn read_pin(text: &str) -> Result<Vec<(String, u64)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(size), Some(sha), Some(path)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("pin line {}: malformed: {line:?}", n + 1));
        };
        let size: u64 = size
            .parse()
            .map_err(|_| format!("pin line {}: bad size {size:?}", n + 1))?;
        if sha.len() != 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("pin line {}: bad SHA-1 {sha:?}", n + 1));
        }
        out.push((path.to_owned(), size));
    }
    if out.is_empty() {
        return Err("the pin names no file".to_owned());
    }
    Ok(out)
}

/// Check `corpus` against the pin text; the error lists the files that are missing or
/// have the wrong size.
pub fn check(corpus: &Path, pin: &str) -> Result<usize, String> {
    let entries = read_pin(pin)?;
    let mut problems = Vec::new();
    for (path, size) in &entries {
        match std::fs::metadata(corpus.join(path)) {
            Ok(m) if m.len() == *size => {}
            Ok(m) => problems.push(format!("{path}: size {}, pinned {size}", m.len())),
            Err(_) => problems.push(format!("{path}: missing")),
        }
    }
    if problems.is_empty() {
        Ok(entries.len())
    } else {
        let shown: Vec<&str> = problems.iter().take(20).map(String::as_str).collect();
        Err(format!(
            "the corpus at {} does not match wpt/pin.txt ({} of {} files missing or different; \
             run scripts/fetch-wpt):\n  {}{}",
            corpus.display(),
            problems.len(),
            entries.len(),
            shown.join("\n  "),
            if problems.len() > shown.len() {
                "\n  ..."
            } else {
                ""
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::process::Command;

    // Git blob SHA-1s of "hello\n" and "second file\n" (`git hash-object`).
    const HELLO_SHA: &str = "ce013625030ba8dba906f756967f9e9ca394464a";
    const SECOND_SHA: &str = "1c59427adc4b205a270d8f810310394962e79a8b";

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wpt-corpus-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn pin_text() -> String {
        format!("# header\n6  {HELLO_SHA}  a.txt\n12  {SECOND_SHA}  sub/b.txt\n")
    }

    fn write_source(dir: &Path, a: &str) {
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.txt"), a).unwrap();
        std::fs::write(dir.join("sub/b.txt"), "second file\n").unwrap();
    }

    #[test]
    fn size_check_names_missing_and_resized_files() {
        let dir = temp("size");
        write_source(&dir, "hello\n");
        assert_eq!(check(&dir, &pin_text()), Ok(2));
        std::fs::write(dir.join("a.txt"), "hello!\n").unwrap();
        std::fs::remove_file(dir.join("sub/b.txt")).unwrap();
        let err = check(&dir, &pin_text()).unwrap_err();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(err.contains("a.txt: size 7, pinned 6"), "{err}");
        assert!(err.contains("sub/b.txt: missing"), "{err}");
        assert!(err.contains("2 of 2"), "{err}");
    }

    #[test]
    fn empty_or_malformed_pins_are_errors() {
        assert!(read_pin("# only comments\n").is_err());
        assert!(read_pin("12 nothex a.txt\n").is_err());
        assert!(read_pin("x 0123456789012345678901234567890123456789 a\n").is_err());
    }

    fn fetch_wpt(src: &Path, dest: &Path, pin: &Path, check_only: bool) -> (bool, String) {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/fetch-wpt");
        let mut cmd = Command::new("python3");
        cmd.arg(script)
            .arg("--src")
            .arg(src)
            .arg("--dest")
            .arg(dest)
            .arg("--pin")
            .arg(pin);
        if check_only {
            cmd.arg("--check");
        }
        let out = cmd.output().expect("python3 runs scripts/fetch-wpt");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.success(), text)
    }

    #[test]
    fn fetch_wpt_lays_verifies_and_rejects_tampering() {
        let dir = temp("fetch");
        let (src, dest, pin) = (dir.join("src"), dir.join("dest"), dir.join("pin.txt"));
        std::fs::write(&pin, pin_text()).unwrap();

        // Good source: laid, then a second run copies nothing.
        write_source(&src, "hello\n");
        let (ok, out) = fetch_wpt(&src, &dest, &pin, false);
        assert!(ok, "{out}");
        assert!(
            out.contains("2 files verified") && out.contains("2 copied"),
            "{out}"
        );
        let (ok, out) = fetch_wpt(&src, &dest, &pin, false);
        assert!(ok && out.contains("0 copied"), "{out}");

        // Tampered laid file, same size: --check fails naming it; a normal run repairs it.
        std::fs::write(dest.join("a.txt"), "hellO\n").unwrap();
        let (ok, out) = fetch_wpt(&src, &dest, &pin, true);
        assert!(!ok, "{out}");
        assert!(out.contains("a.txt: blob sha1"), "{out}");
        let (ok, out) = fetch_wpt(&src, &dest, &pin, false);
        assert!(ok && out.contains("1 copied"), "{out}");

        // Tampered source (same size) and a missing source file: clear errors, non-zero.
        let _ = std::fs::remove_dir_all(&dest);
        write_source(&src, "jello\n");
        std::fs::remove_file(src.join("sub/b.txt")).unwrap();
        let (ok, out) = fetch_wpt(&src, &dest, &pin, false);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(!ok, "{out}");
        assert!(out.contains("a.txt: blob sha1"), "{out}");
        assert!(out.contains("sub/b.txt: missing"), "{out}");
    }
}
