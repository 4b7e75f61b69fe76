//! Which test files exist in the corpus, and command-line filters over them.

use std::path::Path;

/// Directories (corpus-relative) whose `*.any.js` files (recursively) are in scope.
pub const SCOPE: &[&str] = &[
    "streams",
    "dom/abort",
    "dom/events",
    "webidl/ecmascript-binding/es-exceptions",
    "encoding",
    "compression",
    "FileAPI",
    "html/webappapis",
    "WebCryptoAPI",
    "url",
    "hr-time",
    "user-timing",
    "console",
];

/// The `*.window.js` files the runner's Window-like global can host (they need only `window`
/// and a same-window `postMessage`); every other one is listed as skipped.
pub const RUNNABLE_WINDOW_FILES: &[&str] =
    &["streams/transferable/transfer-with-messageport.window.js"];

/// A test file in scope, or one we list but do not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discovered {
    /// Corpus-relative path with `/` separators.
    pub path: String,
    /// `Some(reason)` when the file is listed but not run.
    pub skip: Option<String>,
}

/// Find the test files under `root` (the corpus root), sorted by path. `*.window.js` files
/// are listed as skipped (they need a window global), except [`RUNNABLE_WINDOW_FILES`]. A file with `// META: variant=` lines
/// gives one entry per variant, `path?query` (as WPT runs `file.any.html?1-1000`).
pub fn discover(root: &Path) -> std::io::Result<Vec<Discovered>> {
    let mut out = Vec::new();
    for dir in SCOPE {
        let full = root.join(dir);
        if full.is_dir() {
            walk(root, &full, &mut out)?;
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Discovered>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            walk(root, &path, out)?;
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        if rel.ends_with(".any.js") {
            let variants = std::fs::read_to_string(&path)
                .map(|source| crate::meta::Meta::parse(&source).variants)
                .unwrap_or_default();
            if variants.is_empty() {
                out.push(Discovered {
                    path: rel,
                    skip: None,
                });
            } else {
                for v in variants {
                    out.push(Discovered {
                        path: format!("{rel}{v}"),
                        skip: None,
                    });
                }
            }
        } else if rel.ends_with(".window.js") {
            let skip = if RUNNABLE_WINDOW_FILES.contains(&rel.as_str()) {
                None
            } else {
                Some("window-only test (*.window.js): it needs a document (iframes, other origins); the runner's global is only Window-like".into())
            };
            out.push(Discovered { path: rel, skip });
        }
    }
    Ok(())
}

/// Whether `path` is selected by `filter`. A filter without glob characters selects the
/// path itself and everything under it as a directory (`streams/piping`). Otherwise it is a
/// glob over the whole path: `*` and `?` do not cross `/`, `**` does.
pub fn matches_filter(filter: &str, path: &str) -> bool {
    let filter = filter.trim_start_matches("./");
    // A variant run (`file?1-1000`) is selected by its own id or by its file.
    let (file, variant) = crate::meta::split_variant(path);
    if !variant.is_empty() && path != file && filter != path && matches_filter(filter, file) {
        return true;
    }
    if !filter.contains(['*', '?', '[']) {
        let dir = filter.trim_end_matches('/');
        return path == dir
            || (path.len() > dir.len()
                && path.starts_with(dir)
                && path[dir.len()..].starts_with('/'))
            || dir.is_empty();
    }
    glob_match(filter.as_bytes(), path.as_bytes())
}

fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    match pattern.split_first() {
        None => text.is_empty(),
        Some((b'*', rest)) => {
            if let Some(after) = rest.strip_prefix(b"*") {
                // `**`: any run of characters, `/` included; `**/` may also match nothing.
                let after_slash = after.strip_prefix(b"/");
                (0..=text.len()).any(|i| glob_match(after, text.get(i..).unwrap_or_default()))
                    || after_slash.is_some_and(|a| glob_match(a, text))
            } else {
                let mut i = 0;
                loop {
                    if glob_match(rest, text.get(i..).unwrap_or_default()) {
                        return true;
                    }
                    match text.get(i) {
                        Some(b'/') | None => return false,
                        Some(_) => i += 1,
                    }
                }
            }
        }
        Some((b'?', rest)) => match text.split_first() {
            Some((c, t)) if *c != b'/' => glob_match(rest, t),
            _ => false,
        },
        Some((c, rest)) => match text.split_first() {
            Some((t, tail)) if t == c => glob_match(rest, tail),
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_filters_select_directories_and_files() {
        let p = "streams/readable-streams/general.any.js";
        assert!(matches_filter("streams", p));
        assert!(matches_filter("streams/", p));
        assert!(matches_filter("streams/readable-streams", p));
        assert!(matches_filter(p, p));
        assert!(!matches_filter("streams/readable", p));
        assert!(!matches_filter("dom", p));
        let v = "encoding/a.any.js?1-1000";
        assert!(matches_filter("encoding", v));
        assert!(matches_filter("encoding/a.any.js", v));
        assert!(matches_filter(v, v));
        assert!(!matches_filter("encoding/a.any.js?1001-2000", v));
        assert!(matches_filter("encoding/*.any.js", v));
    }

    #[test]
    fn globs() {
        let p = "streams/readable-streams/general.any.js";
        assert!(matches_filter("streams/readable-streams/*", p));
        assert!(!matches_filter("streams/*", p));
        assert!(matches_filter("streams/**", p));
        assert!(matches_filter("**/general.any.js", p));
        assert!(matches_filter("streams/**/general.any.js", p));
        assert!(matches_filter("streams/*/gen?ral.any.js", p));
        assert!(!matches_filter("streams/*/gen?ral.window.js", p));
        assert!(matches_filter("*/*/*.any.js", p));
        assert!(matches_filter(
            "compression/**",
            "compression/idlharness.https.any.js"
        ));
    }

    #[test]
    fn discovers_in_scope_files_only() {
        let dir = std::env::temp_dir().join(format!("wpt-discover-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for f in [
            "streams/a.any.js",
            "streams/sub/b.any.js",
            "streams/sub/c.window.js",
            "streams/transferable/transfer-with-messageport.window.js",
            "streams/resources/helper.js",
            "dom/abort/d.any.js",
            "dom/nodes/out-of-scope.any.js",
            "encoding/v.any.js",
        ] {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let text = if f.starts_with("encoding/") {
                "// META: variant=?1-2\n// META: variant=?3-last\n"
            } else {
                ""
            };
            std::fs::write(&p, text).unwrap();
        }
        let found = discover(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let names: Vec<(&str, bool)> = found
            .iter()
            .map(|d| (d.path.as_str(), d.skip.is_some()))
            .collect();
        assert_eq!(
            names,
            vec![
                ("dom/abort/d.any.js", false),
                ("encoding/v.any.js?1-2", false),
                ("encoding/v.any.js?3-last", false),
                ("streams/a.any.js", false),
                ("streams/sub/b.any.js", false),
                ("streams/sub/c.window.js", true),
                (
                    "streams/transferable/transfer-with-messageport.window.js",
                    false
                ),
            ]
        );
    }
}
