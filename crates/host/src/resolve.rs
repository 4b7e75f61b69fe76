//! Specifier resolution (see the `modules` docs, "Resolution"): `file:` URLs and paths,
//! `#imports`, packages under `node_modules` with their `exports` conditions, and CommonJS
//! probing for `require`. A leaf: it reads files and `package.json`s and knows no context.

use std::path::{Component, Path, PathBuf};

use boa_engine::{JsError, JsNativeError};

use crate::package_json::Json;

/// A path as messages and stack traces show it.
pub(crate) fn display_path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The `file:` URL of an absolute path (the path itself if it has no URL form).
pub(crate) fn file_url(path: &Path) -> String {
    url::Url::from_file_path(path).map_or_else(|()| display_path(path), String::from)
}

/// Why a specifier did not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResolveError {
    /// No such file or package.
    NotFound(String),
    /// The specifier form is not supported (`node:`, `http:`, ...).
    Unsupported(String),
    /// A package's `exports`/`imports` target is invalid.
    BadTarget(String),
    /// The package does not export that subpath (no key matched, or a `null` target).
    NotExported(String),
    /// A `package.json` that cannot be parsed, or a malformed specifier.
    Invalid(String),
}

impl ResolveError {
    pub(crate) fn into_js(self, specifier: &str, from: &str) -> JsError {
        self.into_js_from(specifier, &format!("imported from {from}"))
    }

    /// The error for `specifier`, `from` saying who asked (`"required from file"`).
    pub(crate) fn into_js_from(self, specifier: &str, from: &str) -> JsError {
        let (prefix, detail) = match self {
            ResolveError::NotFound(d) => ("Cannot find module", d),
            ResolveError::Unsupported(d) => ("Unsupported module specifier", d),
            ResolveError::BadTarget(d) => ("Invalid package target for", d),
            ResolveError::NotExported(d) => ("Package subpath not exported for", d),
            ResolveError::Invalid(d) => ("Invalid module specifier", d),
        };
        JsNativeError::typ()
            .with_message(format!("{prefix} \"{specifier}\" {from}: {detail}"))
            .into()
    }
}

/// A target of `exports`/`imports`: a file, or (in `imports` only) a package specifier.
enum Target {
    Path(PathBuf),
    Bare(String),
}

/// The conditions matched in a package's `exports`/`imports`, before the loader's own
/// (`import` and `module` for an `import`, `require` for a `require`), and `default` after
/// them. See the module docs for why these.
pub(crate) const RUNTIME_CONDITIONS: [&str; 5] =
    ["boa-streams", "workerd", "edge-light", "worker", "browser"];

/// Node's built-in modules (without the `node:` prefix): a bare specifier naming one that no
/// installed package provides gets an error saying it is a built-in.
const NODE_BUILTINS: [&str; 40] = [
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "zlib",
];

/// Specifier resolution with a set of active conditions.
pub(crate) struct Resolver {
    pub(crate) conditions: Vec<&'static str>,
    /// `require` resolution: Node's CommonJS probing (`.js`, `.json`, directories) and the
    /// `main` field only.
    pub(crate) require: bool,
}

impl Resolver {
    /// The resolver of `import` (and `import()`, `import.meta.resolve`).
    pub(crate) fn for_import() -> Self {
        let mut conditions = RUNTIME_CONDITIONS.to_vec();
        conditions.extend(["import", "module", "default"]);
        Self {
            conditions,
            require: false,
        }
    }

    /// The resolver of `require`.
    pub(crate) fn for_require() -> Self {
        let mut conditions = RUNTIME_CONDITIONS.to_vec();
        conditions.extend(["require", "default"]);
        Self {
            conditions,
            require: true,
        }
    }

    /// The canonical path `specifier` names, imported from the file `referrer`.
    pub(crate) fn resolve(
        &self,
        specifier: &str,
        referrer: Option<&Path>,
    ) -> Result<PathBuf, ResolveError> {
        let base = referrer
            .and_then(Path::parent)
            .map(Path::to_owned)
            .filter(|p| !p.as_os_str().is_empty())
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        if let Some(name) = specifier.strip_prefix("node:") {
            return Err(ResolveError::Unsupported(format!(
                "\"{name}\" is a Node.js built-in module: not supported by boa-streams (it provides web-platform APIs, not Node's built-ins)"
            )));
        }
        if let Some(path) = self.path_specifier(specifier, &base)? {
            return if self.require {
                probe(&path)
            } else {
                existing_file(&path)
            };
        }
        if specifier.starts_with('#') {
            return self.resolve_import(specifier, &base);
        }
        match self.resolve_package(specifier, &base) {
            Err(ResolveError::NotFound(_))
                if NODE_BUILTINS.contains(&specifier.split('/').next().unwrap_or_default()) =>
            {
                Err(ResolveError::Unsupported(format!(
                    "\"{specifier}\" is a Node.js built-in module (and no package of that name is installed): not supported by boa-streams (it provides web-platform APIs, not Node's built-ins)"
                )))
            }
            other => other,
        }
    }

    /// A URL, absolute or relative specifier: its path (`None` for a bare or `#` one).
    fn path_specifier(
        &self,
        specifier: &str,
        base: &Path,
    ) -> Result<Option<PathBuf>, ResolveError> {
        if specifier.starts_with("file:") {
            let url = url::Url::parse(specifier)
                .map_err(|e| ResolveError::Invalid(format!("bad file: URL ({e})")))?;
            return url
                .to_file_path()
                .map(Some)
                .map_err(|()| ResolveError::Invalid("the file: URL names no local file".into()));
        }
        if let Some((scheme, _)) = specifier.split_once(':') {
            let is_scheme = scheme.len() > 1
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
            if is_scheme {
                return Err(ResolveError::Unsupported(format!(
                    "{scheme}: URLs are not supported (only file: URLs, paths and packages)"
                )));
            }
        }
        let relative = specifier == "."
            || specifier == ".."
            || specifier.starts_with("./")
            || specifier.starts_with("../");
        if relative {
            return Ok(Some(base.join(specifier)));
        }
        if Path::new(specifier).is_absolute() {
            return Ok(Some(PathBuf::from(specifier)));
        }
        Ok(None)
    }

    /// `#name`: the nearest package.json's `imports`.
    fn resolve_import(&self, specifier: &str, base: &Path) -> Result<PathBuf, ResolveError> {
        if specifier == "#" || specifier.starts_with("#/") {
            return Err(ResolveError::Invalid(
                "\"#\" must be followed by a name".into(),
            ));
        }
        let Some((dir, manifest)) = nearest_package_json(base)? else {
            return Err(ResolveError::NotFound(
                "no package.json with \"imports\" above the importing file".into(),
            ));
        };
        let file = dir.join("package.json");
        let imports = manifest.get("imports").ok_or_else(|| {
            ResolveError::NotFound(format!("{} has no \"imports\"", display_path(&file)))
        })?;
        let not_defined = || {
            ResolveError::NotFound(format!(
                "not defined in the \"imports\" of {}",
                display_path(&file)
            ))
        };
        let Json::Object(_) = imports else {
            return Err(not_defined());
        };
        match self.match_map(imports, specifier, &dir, &file, true)? {
            Some(Target::Path(path)) => existing_file(&path),
            Some(Target::Bare(bare)) => self.resolve_package(&bare, &dir),
            None => Err(not_defined()),
        }
    }

    /// `name[/subpath]` from `node_modules` directories walking up from `base`.
    fn resolve_package(&self, specifier: &str, base: &Path) -> Result<PathBuf, ResolveError> {
        let (name, subpath) = split_package(specifier)?;
        let mut dir = Some(base);
        while let Some(d) = dir {
            let package = d.join("node_modules").join(name);
            if package.is_dir() {
                return self.resolve_in_package(&package, &subpath);
            }
            dir = d.parent();
        }
        Err(ResolveError::NotFound(format!(
            "package \"{name}\" not found in any node_modules above {}",
            display_path(base)
        )))
    }

    /// `subpath` (`"."` or `"./…"`) of the package at `package`.
    fn resolve_in_package(&self, package: &Path, subpath: &str) -> Result<PathBuf, ResolveError> {
        let file = package.join("package.json");
        let manifest = read_package_json(&file)?;
        if let Some(exports) = manifest.as_ref().and_then(|m| m.get("exports")) {
            let has_subpaths =
                matches!(exports, Json::Object(m) if m.iter().any(|(k, _)| k.starts_with('.')));
            let target = if has_subpaths {
                self.match_map(exports, subpath, package, &file, false)?
            } else if subpath == "." {
                self.target(exports, None, package, &file, false)?
            } else {
                None
            };
            return match target {
                Some(Target::Path(path)) => existing_file(&path),
                Some(Target::Bare(_)) | None => Err(ResolveError::NotExported(format!(
                    "\"{subpath}\" is not exported by {}",
                    display_path(&file)
                ))),
            };
        }
        if subpath == "." && self.require {
            for field in ["browser", "main"] {
                let entry = manifest.as_ref().and_then(|m| entry_field(m, field));
                if let Some(found) = entry.and_then(|m| probe(&package.join(m)).ok()) {
                    return Ok(found);
                }
            }
            return probe_index(package).ok_or_else(|| {
                ResolveError::NotFound(format!(
                    "{} has no \"exports\", no usable \"main\" and no index.js",
                    display_path(package)
                ))
            });
        }
        if subpath == "." {
            for field in ["browser", "module", "main"] {
                let Some(entry) = manifest.as_ref().and_then(|m| entry_field(m, field)) else {
                    continue;
                };
                let entry = package.join(entry);
                let candidates = [
                    entry.clone(),
                    with_suffix(&entry, ".js"),
                    entry.join("index.js"),
                ];
                if let Some(found) = candidates.iter().find(|c| c.is_file()) {
                    return existing_file(found);
                }
            }
            let index = package.join("index.js");
            if index.is_file() {
                return existing_file(&index);
            }
            return Err(ResolveError::NotFound(format!(
                "{} has no \"exports\", no usable \"module\"/\"main\" and no index.js",
                display_path(package)
            )));
        }
        let path = package.join(subpath.trim_start_matches("./"));
        if self.require {
            return probe(&path);
        }
        if path.is_dir() && path.join("index.js").is_file() {
            return existing_file(&path.join("index.js"));
        }
        existing_file(&path)
    }

    /// Match `key` against the keys of an `exports`/`imports` map: exactly, else the pattern
    /// (one `*`) with the longest prefix.
    fn match_map(
        &self,
        map: &Json,
        key: &str,
        package: &Path,
        file: &Path,
        imports: bool,
    ) -> Result<Option<Target>, ResolveError> {
        let Json::Object(members) = map else {
            return Ok(None);
        };
        if let Some((_, target)) = members
            .iter()
            .rev()
            .find(|(k, _)| k == key && !k.contains('*'))
        {
            return self.target(target, None, package, file, imports);
        }
        let mut best: Option<(&str, &Json, &str)> = None;
        for (pattern, target) in members {
            let Some((prefix, suffix)) = pattern.split_once('*') else {
                continue;
            };
            if suffix.contains('*') {
                continue;
            }
            if key.len() >= prefix.len() + suffix.len()
                && key.starts_with(prefix)
                && key.ends_with(suffix)
                && key != prefix
            {
                let better = best.is_none_or(|(p, _, _)| {
                    let best_prefix = p.split_once('*').map_or(p, |s| s.0);
                    prefix.len() > best_prefix.len()
                        || (prefix.len() == best_prefix.len() && pattern.len() > p.len())
                });
                if better {
                    let capture = key
                        .get(prefix.len()..key.len() - suffix.len())
                        .unwrap_or_default();
                    best = Some((pattern, target, capture));
                }
            }
        }
        match best {
            Some((_, target, capture)) => {
                self.target(target, Some(capture), package, file, imports)
            }
            None => Ok(None),
        }
    }

    /// Resolve one target value (string, array of fallbacks, conditions object, or null).
    fn target(
        &self,
        target: &Json,
        capture: Option<&str>,
        package: &Path,
        file: &Path,
        imports: bool,
    ) -> Result<Option<Target>, ResolveError> {
        match target {
            Json::Null => Ok(None),
            Json::String(s) => {
                let bad = || {
                    ResolveError::BadTarget(format!(
                        "target \"{s}\" in {} must start with \"./\" and stay inside the package",
                        display_path(file)
                    ))
                };
                if let Some(capture) = capture {
                    if has_bad_segment(capture, false) {
                        return Err(ResolveError::BadTarget(format!(
                            "the pattern match \"{capture}\" leaves the package ({})",
                            display_path(file)
                        )));
                    }
                }
                let substituted = match capture {
                    Some(c) => s.replace('*', c),
                    None => s.clone(),
                };
                let Some(rest) = s.strip_prefix("./") else {
                    let is_bare =
                        imports && !s.starts_with("../") && !s.starts_with('/') && !s.contains(':');
                    return if is_bare {
                        Ok(Some(Target::Bare(substituted)))
                    } else {
                        Err(bad())
                    };
                };
                if has_bad_segment(rest, true) {
                    return Err(bad());
                }
                let rest = substituted.trim_start_matches("./");
                Ok(Some(Target::Path(package.join(rest))))
            }
            Json::Array(items) => {
                let mut last = None;
                for item in items {
                    match self.target(item, capture, package, file, imports) {
                        Ok(Some(t)) => return Ok(Some(t)),
                        Ok(None) => last = None,
                        Err(e @ ResolveError::BadTarget(_)) => last = Some(e),
                        Err(e) => return Err(e),
                    }
                }
                last.map_or(Ok(None), Err)
            }
            Json::Object(members) => {
                for (condition, value) in members {
                    if condition.starts_with('.') {
                        return Err(ResolveError::BadTarget(format!(
                            "{} mixes subpath keys (\"{condition}\") with conditions",
                            display_path(file)
                        )));
                    }
                    if self.conditions.contains(&condition.as_str()) {
                        if let Some(t) = self.target(value, capture, package, file, imports)? {
                            return Ok(Some(t));
                        }
                    }
                }
                Ok(None)
            }
            Json::Bool(_) | Json::Number(_) => Err(ResolveError::BadTarget(format!(
                "a target in {} is neither a string, an array, an object nor null",
                display_path(file)
            ))),
        }
    }
}

/// Does a `/`-separated path contain `.`, `..` or `node_modules` segments (or, for a
/// target, an empty one)?
fn has_bad_segment(path: &str, target: bool) -> bool {
    path.split(['/', '\\'])
        .any(|seg| seg == ".." || (target && (seg == "." || seg == "node_modules")))
}

/// `name` and `./subpath` (or `"."`) of a bare specifier.
fn split_package(specifier: &str) -> Result<(&str, String), ResolveError> {
    let name_end = if specifier.starts_with('@') {
        let Some(slash) = specifier.find('/') else {
            return Err(ResolveError::Invalid(
                "a scoped package name needs a \"/\"".into(),
            ));
        };
        specifier
            .get(slash + 1..)
            .and_then(|rest| rest.find('/'))
            .map_or(specifier.len(), |i| slash + 1 + i)
    } else {
        specifier.find('/').unwrap_or(specifier.len())
    };
    let name = specifier.get(..name_end).unwrap_or(specifier);
    let rest = specifier.get(name_end..).unwrap_or_default();
    if name.is_empty()
        || name.starts_with('.')
        || name.contains('\\')
        || name.contains('%')
        || name.ends_with('/')
    {
        return Err(ResolveError::Invalid(format!(
            "\"{name}\" is not a valid package name"
        )));
    }
    Ok((name, format!(".{rest}")))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The canonical path of an existing file.
fn existing_file(path: &Path) -> Result<PathBuf, ResolveError> {
    if path.is_dir() {
        return Err(ResolveError::NotFound(format!(
            "{} is a directory (import a file in it, e.g. {})",
            display_path(path),
            display_path(&normalize(&path.join("index.js")))
        )));
    }
    std::fs::canonicalize(path)
        .map_err(|_| ResolveError::NotFound(format!("no file {}", display_path(&normalize(path)))))
}

/// A package's entry from the field `field` of its `package.json` (without `exports`). The
/// `browser` field (bundlers' convention, as the `browser` condition) is a path, or an object
/// mapping files to replacements, of which the entry of `main` (or `./index.js`) counts.
fn entry_field<'a>(manifest: &'a Json, field: &str) -> Option<&'a str> {
    let value = manifest.get(field)?;
    if field != "browser" {
        return value.as_str();
    }
    match value {
        Json::String(s) => Some(s),
        Json::Object(_) => {
            let main = manifest
                .get("main")
                .and_then(Json::as_str)
                .unwrap_or("./index.js");
            let bare = main.trim_start_matches("./");
            [main.to_owned(), format!("./{bare}"), bare.to_owned()]
                .iter()
                .find_map(|k| value.get(k).and_then(Json::as_str))
        }
        _ => None,
    }
}

/// Node's `require` probing of a path: the file, then with `.js`, `.json`, `.node`, then
/// as a directory (its `package.json` `main`, probed the same way, then `index.*`).
fn probe(path: &Path) -> Result<PathBuf, ResolveError> {
    if let Some(found) = probe_file(path) {
        return Ok(found);
    }
    if path.is_dir() {
        let main = read_package_json(&path.join("package.json"))
            .ok()
            .flatten()
            .and_then(|m| m.get("main").and_then(Json::as_str).map(str::to_owned));
        if let Some(main) = main {
            let main = path.join(main);
            if let Some(found) = probe_file(&main).or_else(|| probe_index(&main)) {
                return Ok(found);
            }
        }
        if let Some(found) = probe_index(path) {
            return Ok(found);
        }
    }
    Err(ResolveError::NotFound(format!(
        "no file {} (nor with .js, .json or .node, nor a directory with index.js)",
        display_path(&normalize(path))
    )))
}

fn probe_file(path: &Path) -> Option<PathBuf> {
    [
        path.to_owned(),
        with_suffix(path, ".js"),
        with_suffix(path, ".json"),
        with_suffix(path, ".node"),
    ]
    .into_iter()
    .find(|c| c.is_file())
    .and_then(|c| std::fs::canonicalize(c).ok())
}

fn probe_index(dir: &Path) -> Option<PathBuf> {
    ["index.js", "index.json", "index.node"]
        .into_iter()
        .map(|i| dir.join(i))
        .find(|c| c.is_file())
        .and_then(|c| std::fs::canonicalize(c).ok())
}

/// `.` and `..` removed lexically (for messages).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn read_package_json(file: &Path) -> Result<Option<Json>, ResolveError> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Ok(None);
    };
    Json::parse(&text).map(Some).map_err(|e| {
        ResolveError::Invalid(format!("{} is not valid JSON: {e}", display_path(file)))
    })
}

/// The nearest directory at or above `dir` with a `package.json`, and its contents.
fn nearest_package_json(dir: &Path) -> Result<Option<(PathBuf, Json)>, ResolveError> {
    let mut dir = Some(dir);
    while let Some(d) = dir {
        if let Some(json) = read_package_json(&d.join("package.json"))? {
            return Ok(Some((d.to_owned(), json)));
        }
        dir = d.parent();
    }
    Ok(None)
}

/// The nearest `package.json`'s `"type"` above `file` (`None` if there is none or no type).
pub(crate) fn package_type(file: &Path) -> Option<String> {
    let dir = std::fs::canonicalize(file).ok()?.parent()?.to_owned();
    let (_, json) = nearest_package_json(&dir).ok()??;
    json.get("type").and_then(Json::as_str).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_package_names() {
        assert_eq!(split_package("a").unwrap(), ("a", ".".to_owned()));
        assert_eq!(split_package("a/b/c").unwrap(), ("a", "./b/c".to_owned()));
        assert_eq!(split_package("@s/a/b").unwrap(), ("@s/a", "./b".to_owned()));
        assert_eq!(split_package("@s/a").unwrap(), ("@s/a", ".".to_owned()));
        assert!(split_package("@s").is_err());
        assert!(split_package(".a").is_err());
    }

    fn fixture_referrer() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/modules/app/main.js")
    }

    fn resolve_with(conditions: &[&'static str], specifier: &str) -> Result<String, ResolveError> {
        let resolver = Resolver {
            conditions: conditions.to_vec(),
            require: false,
        };
        resolver
            .resolve(specifier, Some(&fixture_referrer()))
            .map(|p| display_path(&p))
    }

    #[test]
    fn conditions_follow_the_package_key_order() {
        let main = ["boa-streams", "browser", "import", "module", "default"];
        let worker = [
            "boa-streams",
            "worker",
            "browser",
            "import",
            "module",
            "default",
        ];
        assert!(resolve_with(&main, "cond-pkg/feature")
            .unwrap()
            .ends_with("/feature.js"));
        assert!(resolve_with(&worker, "cond-pkg/feature")
            .unwrap()
            .ends_with("/feature-worker.js"));
        // "node" comes first in the package but is not active; "boa-streams" is next.
        assert!(resolve_with(&main, "cond-pkg")
            .unwrap()
            .ends_with("/boa.js"));
        assert!(resolve_with(&["default"], "cond-pkg")
            .unwrap()
            .ends_with("/default.js"));
        assert!(matches!(
            resolve_with(&["node"], "cond-pkg/feature"),
            Err(ResolveError::NotExported(_))
        ));
    }

    #[test]
    fn patterns_pick_the_longest_prefix() {
        let main = ["import", "default"];
        assert!(resolve_with(&main, "cond-pkg/utils/strings")
            .unwrap()
            .ends_with("/lib/utils/strings.js"));
        // "./utils/private/*" (null) is longer than "./utils/*".
        assert!(matches!(
            resolve_with(&main, "cond-pkg/utils/private/secret"),
            Err(ResolveError::NotExported(_))
        ));
        // The file exists, but the package does not export it.
        assert!(matches!(
            resolve_with(&main, "cond-pkg/lib/utils/strings.js"),
            Err(ResolveError::NotExported(_))
        ));
        // An array of fallbacks skips an invalid target.
        assert!(resolve_with(&main, "cond-pkg/fallback")
            .unwrap()
            .ends_with("/default.js"));
    }
}
