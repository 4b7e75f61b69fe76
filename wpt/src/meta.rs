//! `// META:` headers of WPT `.any.js` files and WPT-style path resolution.
//!
//! WPT reads metadata from the leading run of lines that start with `//`; a line of the form
//! `// META: key=value` sets a key. We use `script` (extra scripts, in order), `timeout`
//! (`long` gives the longer deadline), `title` (exposed as `META_TITLE`), `global` (which
//! scopes the file is meant for) and `variant` (each value, such as `?1-1000`, is the query of
//! a separate test run; the runner names such a run `file?1-1000`).

/// The metadata of one test file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    /// `script=` values in order, as written.
    pub scripts: Vec<String>,
    /// `timeout=long`.
    pub long_timeout: bool,
    /// `title=`.
    pub title: Option<String>,
    /// `global=` variants (comma separated), if the key is present.
    pub globals: Option<Vec<String>>,
    /// `variant=` values in order (each starts with `?` or `#`).
    pub variants: Vec<String>,
}

impl Meta {
    /// Parse the metadata block at the top of `source`.
    pub fn parse(source: &str) -> Meta {
        let mut meta = Meta::default();
        for line in source.lines() {
            let Some(comment) = line.strip_prefix("//") else {
                break;
            };
            let Some(rest) = comment.trim_start().strip_prefix("META:") else {
                continue;
            };
            let Some((key, value)) = rest.trim_start().split_once('=') else {
                continue;
            };
            let key = key.trim();
            if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let value = value.trim();
            match key {
                "script" => meta.scripts.push(value.to_owned()),
                "timeout" => meta.long_timeout = value == "long",
                "title" => meta.title = Some(value.to_owned()),
                "variant" => meta.variants.push(value.to_owned()),
                "global" => {
                    meta.globals = Some(
                        value
                            .split(',')
                            .map(|v| v.trim().to_owned())
                            .filter(|v| !v.is_empty())
                            .collect(),
                    )
                }
                _ => {}
            }
        }
        meta
    }

    /// Whether the file is meant for a scope our shell-like global stands in for (a window,
    /// a worker or a JS shell). WPT's default for `.any.js` is window + dedicated worker.
    /// Files only for ShadowRealm scopes are skipped.
    pub fn runs_in_shell(&self) -> bool {
        match &self.globals {
            None => true,
            Some(globals) => globals.iter().any(|g| {
                matches!(
                    g.as_str(),
                    "window"
                        | "worker"
                        | "dedicatedworker"
                        | "sharedworker"
                        | "serviceworker"
                        | "jsshell"
                        | "dedicatedworker-module"
                        | "sharedworker-module"
                        | "serviceworker-module"
                )
            }),
        }
    }
}

/// Split a test id (`dir/file.any.js` or, for a variant, `dir/file.any.js?1-1000`) into the
/// corpus-relative file and the variant's query (`""` or starting with `?` or `#`).
pub fn split_variant(id: &str) -> (&str, &str) {
    match id.find(['?', '#']) {
        Some(i) => id.split_at(i),
        None => (id, ""),
    }
}

/// Resolve a `script=` value against the test file, as WPT's server would: an absolute path
/// (`/resources/testharness.js`) is taken from the corpus root, anything else is relative to
/// the directory of `test_path`. Both paths are corpus-relative with `/` separators. Returns
/// the normalised corpus-relative path, or `None` when it leaves the corpus or is a URL.
pub fn resolve_script(test_path: &str, script: &str) -> Option<String> {
    if script.contains("://") {
        return None;
    }
    // Drop a query or fragment, which WPT's server would ignore for a static file.
    let script = script.split(['?', '#']).next().unwrap_or(script);
    let mut parts: Vec<&str> = Vec::new();
    let relative = if let Some(absolute) = script.strip_prefix('/') {
        absolute
    } else {
        let dir = test_path.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("");
        parts.extend(dir.split('/').filter(|p| !p.is_empty()));
        script
    };
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_leading_meta_block() {
        let src = "// META: global=window,worker,shadowrealm\n\
                   // META: script=../resources/test-utils.js\n\
                   //META:script=/common/gc.js\n\
                   // META: timeout=long\n\
                   // META: title=Some title = with equals\n\
                   // an ordinary comment\n\
                   'use strict';\n\
                   // META: script=ignored-after-code.js\n";
        let meta = Meta::parse(src);
        assert_eq!(
            meta.scripts,
            vec!["../resources/test-utils.js", "/common/gc.js"]
        );
        assert!(meta.long_timeout);
        assert_eq!(meta.title.as_deref(), Some("Some title = with equals"));
        assert_eq!(
            meta.globals,
            Some(vec![
                "window".to_owned(),
                "worker".to_owned(),
                "shadowrealm".to_owned()
            ])
        );
        assert!(meta.runs_in_shell());
    }

    #[test]
    fn variants_are_separate_runs() {
        let meta = Meta::parse("// META: variant=?1-1000\n// META: variant=?1001-last\n");
        assert_eq!(meta.variants, vec!["?1-1000", "?1001-last"]);
        assert_eq!(
            split_variant("encoding/a.any.js?1001-last"),
            ("encoding/a.any.js", "?1001-last")
        );
        assert_eq!(
            split_variant("encoding/a.any.js"),
            ("encoding/a.any.js", "")
        );
    }

    #[test]
    fn meta_without_colon_is_ignored_like_wpt() {
        let meta = Meta::parse("// META global=shadowrealm\n// META: timeout=normal\n");
        assert_eq!(meta.globals, None);
        assert!(!meta.long_timeout);
        assert!(meta.runs_in_shell());
    }

    #[test]
    fn blank_line_ends_the_block() {
        let meta = Meta::parse("// META: script=a.js\n\n// META: script=b.js\n");
        assert_eq!(meta.scripts, vec!["a.js"]);
    }

    #[test]
    fn shadowrealm_only_files_are_not_for_the_shell() {
        assert!(!Meta::parse("// META: global=shadowrealm\n").runs_in_shell());
        assert!(!Meta::parse("// META: global=shadowrealm-in-window\n").runs_in_shell());
        assert!(Meta::parse("// META: global=window,dedicatedworker\n").runs_in_shell());
        assert!(Meta::parse("test(() => {});\n").runs_in_shell());
    }

    #[test]
    fn resolves_relative_and_absolute_scripts() {
        let t = "streams/piping/abort.any.js";
        assert_eq!(
            resolve_script(t, "../resources/test-utils.js").as_deref(),
            Some("streams/resources/test-utils.js")
        );
        assert_eq!(
            resolve_script(t, "/resources/idlharness.js").as_deref(),
            Some("resources/idlharness.js")
        );
        assert_eq!(
            resolve_script(
                "compression/x.any.js",
                "third_party/pako/pako_inflate.min.js"
            )
            .as_deref(),
            Some("compression/third_party/pako/pako_inflate.min.js")
        );
        assert_eq!(
            resolve_script(
                "dom/abort/a.any.js",
                "./resources/abort-signal-any-tests.js"
            )
            .as_deref(),
            Some("dom/abort/resources/abort-signal-any-tests.js")
        );
        assert_eq!(
            resolve_script("top.any.js", "/common/sab.js?pipe=sub").as_deref(),
            Some("common/sab.js")
        );
    }

    #[test]
    fn rejects_paths_leaving_the_corpus() {
        assert_eq!(resolve_script("streams/a.any.js", "../../x.js"), None);
        assert_eq!(resolve_script("a.any.js", "/../x.js"), None);
        assert_eq!(resolve_script("a.any.js", "https://example.com/x.js"), None);
        assert_eq!(resolve_script("a.any.js", "/"), None);
    }
}
