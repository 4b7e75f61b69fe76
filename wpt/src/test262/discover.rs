//! Where the corpus is, which test files it has, which of them run and in which modes.

use std::path::{Path, PathBuf};

use super::meta::Meta;
use super::results::Mode;

/// The directories under `test/` the runner covers (the pinned copy has no `intl402/`,
/// `staging/` or `harness/`).
pub const TOP_DIRS: &[&str] = &["built-ins", "language", "annexB"];

/// Features (`features:` in a test's frontmatter) that boa_engine 0.22 as built here does not
/// implement: tests declaring one are reported as skipped, not run. Chosen from a full run of
/// the stock engine with `--no-feature-skips` (pass rate of the feature's runs in brackets);
/// features the engine implements in part (`import-defer` 74%, `error-stack-accessor` 60%)
/// run, and their failures count.
pub const UNSUPPORTED_FEATURES: &[(&str, &str)] = &[
    // A host hook this runner does not provide (INTERPRETING.md: tests must declare it).
    (
        "IsHTMLDDA",
        "$262.IsHTMLDDA: no object with [[IsHTMLDDA]] in this host",
    ),
    // Proposals and extensions the engine lacks.
    ("ShadowRealm", "no ShadowRealm constructor (0%)"),
    ("decorators", "`@decorator` syntax is not parsed (10%)"),
    ("import-text", "`with { type: 'text' }` modules (0%)"),
    ("import-bytes", "`with { type: 'bytes' }` modules (0%)"),
    ("joint-iteration", "Iterator.zip / Iterator.zipKeyed (6%)"),
    (
        "iterator-chunking",
        "Iterator.prototype.chunks / windows (12%)",
    ),
    ("Iterator.prototype.join", "Iterator.prototype.join (11%)"),
    (
        "immutable-arraybuffer",
        "ArrayBuffer.prototype.transferToImmutable (3%)",
    ),
    (
        "uint8array-base64",
        "Uint8Array.fromBase64 / toBase64 / fromHex / toHex (11%)",
    ),
    (
        "legacy-regexp",
        "RegExp legacy static accessors (RegExp.$1, lastMatch, ...) (0%)",
    ),
    (
        "symbols-as-weakmap-keys",
        "symbols as WeakMap / WeakRef / FinalizationRegistry keys (0%)",
    ),
    (
        "caller",
        "the legacy `caller` restrictions on non-strict functions (0%)",
    ),
    (
        "tail-call-optimization",
        "proper tail calls (3%; the tests recurse 100000 deep)",
    ),
];

/// Why a test file does not run, or `None` when it runs. With `feature_skips` false, the
/// unsupported features do not skip (the host's own limits still do).
pub fn skip_reason(meta: &Meta, source: &str, feature_skips: bool) -> Option<String> {
    if feature_skips {
        for feature in &meta.features {
            if let Some((_, why)) = UNSUPPORTED_FEATURES.iter().find(|(f, _)| f == feature) {
                return Some(format!("feature {feature}: {why}"));
            }
        }
    }
    if meta.has_flag("CanBlockIsTrue") {
        return Some("flag CanBlockIsTrue: the runner's agent cannot block".to_owned());
    }
    if source.contains("$262.agent") || meta.includes.iter().any(|i| i == "atomicsHelper.js") {
        return Some("needs $262.agent (no concurrent agents in this runner)".to_owned());
    }
    if meta.features.iter().any(|f| f == "IsHTMLDDA") {
        return Some("feature IsHTMLDDA: a host hook this runner does not provide".to_owned());
    }
    None
}

/// The modes a test runs in (INTERPRETING.md, `flags`).
pub fn modes(meta: &Meta) -> Vec<Mode> {
    if meta.has_flag("module") {
        vec![Mode::Module]
    } else if meta.has_flag("raw") || meta.has_flag("noStrict") {
        vec![Mode::Sloppy]
    } else if meta.has_flag("onlyStrict") {
        vec![Mode::Strict]
    } else {
        vec![Mode::Sloppy, Mode::Strict]
    }
}

/// The test262 checkout: `$TEST262_DIR`, else `shared/test262` in the repository root's parent
/// or a further ancestor (`../shared/test262` from a checkout, which also serves worktrees
/// one level deeper).
pub fn default_corpus(repo_root: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("TEST262_DIR") {
        return PathBuf::from(dir);
    }
    repo_root
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared/test262"))
        .find(|p| p.join("harness/assert.js").is_file())
        .unwrap_or_else(|| repo_root.join("../shared/test262"))
}

/// The pinned commit named in the corpus's SOURCE.md (`commit <40 hex digits>`).
pub fn corpus_commit(corpus: &Path) -> String {
    let Ok(text) = std::fs::read_to_string(corpus.join("SOURCE.md")) else {
        return String::new();
    };
    text.split_whitespace()
        .find(|w| w.len() == 40 && w.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_default()
        .to_owned()
}

/// Every test file under `test/{built-ins,language,annexB}` of `corpus`, relative to `test/`,
/// sorted: `*.js` files without `_FIXTURE` in their name.
pub fn discover(corpus: &Path) -> std::io::Result<Vec<String>> {
    let tests = corpus.join("test");
    let mut out = Vec::new();
    for top in TOP_DIRS {
        let dir = tests.join(top);
        if dir.is_dir() {
            walk(&tests, &dir, &mut out)?;
        }
    }
    out.sort();
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(root, &path, out)?;
            continue;
        }
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !name.ends_with(".js") || name.contains("_FIXTURE") {
            continue;
        }
        if let Ok(rel) = path.strip_prefix(root) {
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(rel.join("/"));
        }
    }
    Ok(())
}

/// Whether `filter` selects `path` (both relative to `test/`): the filter, a glob where `*`
/// and `?` stay within a path component and `**` spans components, matches the path or one of
/// its ancestor directories. `language/statements/for*` selects everything under
/// `language/statements/for`, `for-in`, `for-of` and `for-await-of`.
pub fn matches_filter(filter: &str, path: &str) -> bool {
    let filter = filter.trim_end_matches('/');
    let pattern: Vec<&str> = filter.split('/').collect();
    let parts: Vec<&str> = path.split('/').collect();
    (1..=parts.len()).any(|n| parts.get(..n).is_some_and(|p| glob_parts(&pattern, p)))
}

fn glob_parts(pattern: &[&str], parts: &[&str]) -> bool {
    match pattern.split_first() {
        None => parts.is_empty(),
        Some((&"**", rest)) => {
            (0..=parts.len()).any(|k| glob_parts(rest, parts.get(k..).unwrap_or_default()))
        }
        Some((first, rest)) => match parts.split_first() {
            Some((part, more)) => {
                glob_component(first.as_bytes(), part.as_bytes()) && glob_parts(rest, more)
            }
            None => false,
        },
    }
}

fn glob_component(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => {
            (0..=text.len()).any(|k| glob_component(rest, text.get(k..).unwrap_or_default()))
        }
        Some((b'?', rest)) => text
            .split_first()
            .is_some_and(|(_, more)| glob_component(rest, more)),
        Some((c, rest)) => text
            .split_first()
            .is_some_and(|(t, more)| t == c && glob_component(rest, more)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_match_the_path_or_an_ancestor() {
        let p = "language/statements/for-of/x.js";
        assert!(matches_filter("language", p));
        assert!(matches_filter("language/statements/for*", p));
        assert!(matches_filter("language/statements/for-of/", p));
        assert!(matches_filter("language/**/x.js", p));
        assert!(matches_filter("**/for-of", p));
        assert!(matches_filter(p, p));
        assert!(matches_filter("language/statements/for-o?/x.js", p));
        assert!(!matches_filter("language/statements/for", p));
        assert!(!matches_filter("language/statements/class", p));
        assert!(!matches_filter("language/*/x.js", p));
        assert!(!matches_filter("built-ins", p));
    }

    #[test]
    fn flags_decide_the_modes() {
        let m = |src: &str| modes(&Meta::parse(src).unwrap());
        assert_eq!(m("x"), vec![Mode::Sloppy, Mode::Strict]);
        assert_eq!(m("/*---\nflags: [onlyStrict]\n---*/"), vec![Mode::Strict]);
        assert_eq!(m("/*---\nflags: [noStrict]\n---*/"), vec![Mode::Sloppy]);
        assert_eq!(m("/*---\nflags: [raw]\n---*/"), vec![Mode::Sloppy]);
        assert_eq!(
            m("/*---\nflags: [module, async]\n---*/"),
            vec![Mode::Module]
        );
    }

    #[test]
    fn skips_unsupported_features_blocking_agents_and_agent_tests() {
        let skip = |src: &str| skip_reason(&Meta::parse(src).unwrap(), src, true);
        assert_eq!(skip("/*---\nfeatures: [Symbol]\n---*/"), None);
        assert!(skip("/*---\nfeatures: [Symbol, IsHTMLDDA]\n---*/")
            .unwrap()
            .contains("IsHTMLDDA"));
        assert!(skip("/*---\nflags: [CanBlockIsTrue]\n---*/")
            .unwrap()
            .contains("CanBlockIsTrue"));
        assert!(skip("$262.agent.start('')").unwrap().contains("agent"));
        assert!(skip("/*---\nincludes: [atomicsHelper.js]\n---*/").is_some());
        assert_eq!(skip("/*---\nflags: [CanBlockIsFalse]\n---*/"), None);
        // Without feature skips, a ShadowRealm test runs; the host's own limits still skip.
        let src = "/*---\nfeatures: [ShadowRealm]\nincludes: [atomicsHelper.js]\n---*/";
        let meta = Meta::parse(src).unwrap();
        assert!(skip_reason(&meta, src, true)
            .unwrap()
            .contains("ShadowRealm"));
        assert!(skip_reason(&meta, src, false).unwrap().contains("agent"));
        let html = "/*---\nfeatures: [IsHTMLDDA]\n---*/";
        assert!(skip_reason(&Meta::parse(html).unwrap(), html, false).is_some());
    }

    #[test]
    fn explicit_resource_management_runs() {
        let skip = |src: &str| skip_reason(&Meta::parse(src).unwrap(), src, true);
        let using = "/*---\nfeatures: [explicit-resource-management]\n---*/\n{ using x = null; }";
        assert_eq!(skip(using), None);
        let stack =
            "/*---\nfeatures: [explicit-resource-management]\n---*/\nnew DisposableStack();";
        assert_eq!(skip(stack), None);
    }

    #[test]
    fn discovers_tests_but_not_fixtures() {
        let dir = std::env::temp_dir().join(format!("t262-discover-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in [
            "test/language/a/b.js",
            "test/language/a/c_FIXTURE.js",
            "test/language/a/d.json",
            "test/built-ins/X/y.js",
            "test/intl402/z.js",
        ] {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        std::fs::write(
            dir.join("SOURCE.md"),
            format!("commit {} (x)", "ab".repeat(20)),
        )
        .unwrap();
        let found = discover(&dir).unwrap();
        assert_eq!(found, vec!["built-ins/X/y.js", "language/a/b.js"]);
        assert_eq!(corpus_commit(&dir), "ab".repeat(20));
        let _ = std::fs::remove_dir_all(dir);
    }
}
