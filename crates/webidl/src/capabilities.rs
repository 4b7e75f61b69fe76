//! The capability policy ("least authority"): what a context's scripts may reach beyond their
//! own memory. Authority is granted, not ambient.
//!
//! One [`Capabilities`] value per context, installed with [`Capabilities::install`] (or
//! `boa_web::register_with`, or the host's `HostOptions::capabilities`); every crate asks
//! [`Capabilities::of`] at the moment of the operation. It says
//!
//! | capability | what it governs | [`Capabilities::default()`] | [`Capabilities::unrestricted()`] |
//! | --- | --- | --- | --- |
//! | net ([`NetAccess`]) | the hosts and ports `fetch()` may contact (`http:`, `https:`, on every redirect hop) | none | any |
//! | listen ([`NetAccess`]) | where `BoaStreams.serve()` may listen | none | any |
//! | fs-read ([`FsAccess`]) | the directories `file:` fetches and the host's module loader may read | no directory | any |
//! | schemes | the URL schemes `fetch()` may use at all (`data:`, `blob:` and `about:` carry no authority and are always allowed) | every scheme (the checks above decide) | every scheme |
//! | worker | whether `new Worker()` may start a thread (a worker inherits its creator's capabilities) | no | yes |
//! | env | whether the process environment may be read | no | yes |
//!
//! A context with no policy installed gets [`Capabilities::default()`]: a crate registered on
//! its own (`boa_net::register`) falls back to the restrictive default, never to ambient
//! authority. Scripts that only compute (streams, encoding, compression, URL, crypto, ...)
//! need no capability at all.
//!
//! A denied operation fails with a TypeError (a promise API rejects, a synchronous one throws)
//! whose message names the capability and the host flag that grants it
//! ([`Denied::to_error`]):
//!
//! ```
//! use boa_engine::{Context, Source};
//! use boa_webidl::capabilities::{Capabilities, Capability};
//!
//! let mut context = Context::default();
//! // Nothing installed: the restrictive default.
//! let caps = Capabilities::of(&context);
//! let denied = caps.check_read(std::path::Path::new("/etc/passwd")).unwrap_err();
//! assert_eq!(denied.capability(), Capability::FsRead);
//! assert_eq!(
//!     denied.to_error("fetch of file:///etc/passwd").as_native().unwrap().message(),
//!     "fetch of file:///etc/passwd denied: reading files needs the fs-read capability (--allow-fs-read)"
//! );
//!
//! // An embedder grants what its scripts need.
//! Capabilities::default()
//!     .allow_net(["127.0.0.1:8080", "example.com"])
//!     .allow_env()
//!     .install(&mut context);
//! let caps = Capabilities::of(&context);
//! assert!(caps.check_connect("example.com", 443).is_ok());
//! assert!(caps.check_connect("127.0.0.1", 8080).is_ok());
//! assert!(caps.check_connect("127.0.0.1", 8081).is_err());
//! assert!(caps.check_env().is_ok());
//! assert!(caps.check_worker().is_err());
//! ```
//!
//! Paths are checked after canonicalization (symlinks followed; the part of a path that does
//! not exist yet is normalized lexically), by whole path components: the root `/srv/app`
//! admits `/srv/app/x.js` but not `/srv/application.js`. [`Capabilities::check_read`] returns
//! the canonical path, and callers open that one (not the name they were given), so a symlink
//! swapped in after the check does not lead outside the roots.

use std::fmt;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, OnceLock};

use boa_engine::{Context, JsError, JsNativeError};

/// Which hosts (and ports) a network capability admits.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NetAccess {
    /// No host at all.
    #[default]
    None,
    /// Every host and port.
    Any,
    /// Only these (an entry without a port admits every port of its host).
    Hosts(Vec<HostPort>),
}

impl NetAccess {
    /// Does this admit `host` (a URL host: a domain, an IPv4 address or a bracketed IPv6
    /// address; compared case-insensitively, a trailing dot ignored) on `port`? For a
    /// listener, port 0 (any free port) is admitted only by an entry without a port.
    ///
    /// ```
    /// use boa_webidl::capabilities::{HostPort, NetAccess};
    ///
    /// let list = NetAccess::Hosts(vec![HostPort::parse("Example.com").unwrap()]);
    /// assert!(list.admits("example.com.", 8080));
    /// assert!(!list.admits("api.example.com", 443));
    /// assert!(NetAccess::Any.admits("anything", 1));
    /// assert!(!NetAccess::None.admits("localhost", 80));
    /// ```
    pub fn admits(&self, host: &str, port: u16) -> bool {
        match self {
            Self::None => false,
            Self::Any => true,
            Self::Hosts(list) => {
                let host = normalize_host(host);
                list.iter()
                    .any(|e| e.host == host && e.port.is_none_or(|p| p == port))
            }
        }
    }

    fn add(&mut self, entries: Vec<HostPort>) {
        match self {
            Self::Any => {}
            Self::None => *self = Self::Hosts(entries),
            Self::Hosts(list) => list.extend(entries),
        }
    }
}

/// One entry of a host list: `HOST` or `HOST:PORT`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HostPort {
    /// The host, lowercased, without a trailing dot (an IPv6 address keeps its brackets).
    pub host: String,
    /// The port; `None` admits every port.
    pub port: Option<u16>,
}

impl HostPort {
    /// Parse `HOST`, `HOST:PORT`, `[IPV6]` or `[IPV6]:PORT`.
    ///
    /// ```
    /// use boa_webidl::capabilities::HostPort;
    ///
    /// let e = HostPort::parse("127.0.0.1:8080").unwrap();
    /// assert_eq!((e.host.as_str(), e.port), ("127.0.0.1", Some(8080)));
    /// assert_eq!(HostPort::parse("[::1]").unwrap().host, "[::1]");
    /// assert!(HostPort::parse("").is_err());
    /// assert!(HostPort::parse("a:b:c").is_err());
    /// assert!(HostPort::parse("host:99999").is_err());
    /// assert!(HostPort::parse("http://example.com").is_err());
    /// ```
    pub fn parse(entry: &str) -> Result<Self, String> {
        let entry = entry.trim();
        let bad = || format!("\"{entry}\" is not HOST or HOST:PORT");
        let (host, port) = if let Some(rest) = entry.strip_prefix('[') {
            let (address, after) = rest.split_once(']').ok_or_else(bad)?;
            let port = match after {
                "" => None,
                _ => Some(after.strip_prefix(':').ok_or_else(bad)?),
            };
            if address.is_empty()
                || !address
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
            {
                return Err(bad());
            }
            (format!("[{address}]"), port)
        } else {
            match entry.split_once(':') {
                Some((host, port)) => (host.to_owned(), Some(port)),
                None => (entry.to_owned(), None),
            }
        };
        let valid_host = host.starts_with('[')
            || host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if host.is_empty() || host == "." || !valid_host {
            return Err(bad());
        }
        let port =
            match port {
                None => None,
                Some(p) => Some(p.parse::<u16>().map_err(|_| {
                    format!("\"{entry}\": the port must be a number from 0 to 65535")
                })?),
            };
        Ok(Self {
            host: normalize_host(&host),
            port,
        })
    }
}

impl fmt::Display for HostPort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => f.write_str(&self.host),
        }
    }
}

/// Lowercased, without a trailing dot; a bare IPv6 address (a listener's hostname) gets the
/// brackets a URL host has.
fn normalize_host(host: &str) -> String {
    let host = host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase();
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host
    }
}

/// Which directories may be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FsAccess {
    /// Every file the process can read.
    Any,
    /// Only files inside these directories (empty: none).
    Roots(Vec<PathBuf>),
}

impl Default for FsAccess {
    fn default() -> Self {
        Self::Roots(Vec::new())
    }
}

/// A capability a denied operation needed (its name and the `boa-streams` flag that grants it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    /// Reading files (`file:` fetches, module imports).
    FsRead,
    /// The network: outbound `fetch()` and listening with `BoaStreams.serve()`.
    Net,
    /// A URL scheme `fetch()` may not use ([`Capabilities::only_schemes`]).
    Scheme,
    /// Starting workers.
    Worker,
    /// Reading the process environment.
    Env,
}

impl Capability {
    /// The capability's name: `fs-read`, `net`, `fetch-scheme`, `worker`, `env`.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capability;
    /// assert_eq!(Capability::FsRead.name(), "fs-read");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Self::FsRead => "fs-read",
            Self::Net => "net",
            Self::Scheme => "fetch-scheme",
            Self::Worker => "worker",
            Self::Env => "env",
        }
    }

    /// The `boa-streams` flag that grants it (`None` for [`Capability::Scheme`], which only an
    /// embedder restricts).
    ///
    /// ```
    /// use boa_webidl::capabilities::Capability;
    /// assert_eq!(Capability::Net.flag(), Some("--allow-net"));
    /// ```
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Self::FsRead => Some("--allow-fs-read"),
            Self::Net => Some("--allow-net"),
            Self::Scheme => None,
            Self::Worker => Some("--allow-worker"),
            Self::Env => Some("--allow-env"),
        }
    }
}

/// Why an operation was denied: the capability it needed and a sentence saying so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denied {
    capability: Capability,
    reason: String,
}

impl Denied {
    fn new(capability: Capability, what: &str) -> Self {
        let reason = match capability.flag() {
            Some(flag) => format!("{what} needs the {} capability ({flag})", capability.name()),
            None => format!("{what} is not allowed by this context's capabilities"),
        };
        Self { capability, reason }
    }

    /// The capability the operation needed.
    ///
    /// ```
    /// use boa_webidl::capabilities::{Capabilities, Capability};
    /// assert_eq!(Capabilities::default().check_env().unwrap_err().capability(), Capability::Env);
    /// ```
    pub fn capability(&self) -> Capability {
        self.capability
    }

    /// The reason (without the operation), e.g. `network access needs the net capability
    /// (--allow-net)`.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert_eq!(
    ///     Capabilities::default().check_worker().unwrap_err().reason(),
    ///     "starting a worker needs the worker capability (--allow-worker)"
    /// );
    /// ```
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The TypeError to throw or reject with: `"{operation} denied: {reason}"`.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let e = Capabilities::default().check_env().unwrap_err().to_error("process.env");
    /// assert_eq!(
    ///     e.as_native().unwrap().message(),
    ///     "process.env denied: reading the environment needs the env capability (--allow-env)"
    /// );
    /// ```
    pub fn to_error(&self, operation: &str) -> JsError {
        JsNativeError::typ()
            .with_message(format!("{operation} denied: {}", self.reason))
            .into()
    }
}

impl fmt::Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)
    }
}

impl std::error::Error for Denied {}

/// The capability policy of a context (see the [module docs](self)).
///
/// ```
/// use boa_webidl::capabilities::{Capabilities, FsAccess, NetAccess};
///
/// let caps = Capabilities::default();
/// assert_eq!(caps.net(), &NetAccess::None);
/// assert_eq!(caps.fs_read(), &FsAccess::Roots(vec![]));
/// assert!(!caps.worker() && !caps.env());
///
/// let all = Capabilities::unrestricted();
/// assert_eq!(all.net(), &NetAccess::Any);
/// assert!(all.worker() && all.env());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Capabilities {
    net: NetAccess,
    listen: NetAccess,
    fs_read: FsAccess,
    schemes: Option<Vec<String>>,
    worker: bool,
    env: bool,
}

/// The policy installed on a context ([`Capabilities::install`]).
struct Installed(Arc<Capabilities>);

/// The schemes that carry no authority: always allowed.
const FREE_SCHEMES: [&str; 3] = ["data", "blob", "about"];

impl Capabilities {
    /// Everything allowed: any host, any listener, any file, every scheme, workers and the
    /// environment (what `boa-streams` runs with unless `--permission` is given).
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::unrestricted().check_connect("example.com", 80).is_ok());
    /// ```
    pub fn unrestricted() -> Self {
        Self {
            net: NetAccess::Any,
            listen: NetAccess::Any,
            fs_read: FsAccess::Any,
            schemes: None,
            worker: true,
            env: true,
        }
    }

    /// The policy of `context`: the one [installed](Self::install) on it, or
    /// [`Capabilities::default()`] (everything with authority denied) when none was.
    ///
    /// ```
    /// use boa_engine::Context;
    /// use boa_webidl::capabilities::Capabilities;
    ///
    /// let mut context = Context::default();
    /// assert_eq!(*Capabilities::of(&context), Capabilities::default());
    /// Capabilities::unrestricted().install(&mut context);
    /// assert_eq!(*Capabilities::of(&context), Capabilities::unrestricted());
    /// ```
    pub fn of(context: &Context) -> Arc<Self> {
        static DEFAULT: OnceLock<Arc<Capabilities>> = OnceLock::new();
        match context.get_data::<Installed>() {
            Some(installed) => installed.0.clone(),
            None => DEFAULT.get_or_init(|| Arc::new(Self::default())).clone(),
        }
    }

    /// Make this the policy of `context` (replacing any installed before).
    ///
    /// ```
    /// use boa_engine::Context;
    /// use boa_webidl::capabilities::Capabilities;
    ///
    /// let mut context = Context::default();
    /// Capabilities::default().allow_worker().install(&mut context);
    /// assert!(Capabilities::of(&context).check_worker().is_ok());
    /// ```
    pub fn install(self, context: &mut Context) {
        context.insert_data(Installed(Arc::new(self)));
    }

    /// Allow `fetch()` to contact these hosts (`HOST` or `HOST:PORT`, see [`HostPort::parse`];
    /// without a port every port of the host; added to those allowed before). An entry that
    /// does not parse admits nothing (validate user input with [`HostPort::parse`] first).
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let caps = Capabilities::default().allow_net(["127.0.0.1:8080"]);
    /// assert!(caps.check_connect("127.0.0.1", 8080).is_ok());
    /// assert!(caps.check_connect("127.0.0.1", 80).is_err());
    /// assert!(caps.check_listen("127.0.0.1", 8080).is_err()); // listening is separate
    /// ```
    #[must_use]
    pub fn allow_net<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.net.add(parse_entries(hosts));
        self
    }

    /// Allow `fetch()` to contact any host.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().allow_net_any().check_connect("example.com", 443).is_ok());
    /// ```
    #[must_use]
    pub fn allow_net_any(mut self) -> Self {
        self.net = NetAccess::Any;
        self
    }

    /// Allow `BoaStreams.serve()` to listen on these addresses (`HOST` or `HOST:PORT`, the
    /// hostname as given to `serve`; an entry without a port admits every port, port 0 too).
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let caps = Capabilities::default().allow_listen(["127.0.0.1"]);
    /// assert!(caps.check_listen("127.0.0.1", 0).is_ok());
    /// assert!(caps.check_listen("0.0.0.0", 8080).is_err());
    /// ```
    #[must_use]
    pub fn allow_listen<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.listen.add(parse_entries(hosts));
        self
    }

    /// Allow `BoaStreams.serve()` to listen anywhere.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().allow_listen_any().check_listen("0.0.0.0", 80).is_ok());
    /// ```
    #[must_use]
    pub fn allow_listen_any(mut self) -> Self {
        self.listen = NetAccess::Any;
        self
    }

    /// Allow reading the files inside these directories (`file:` fetches, module imports),
    /// besides those allowed before. Relative paths are taken from the current directory when
    /// checked.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let dir = std::env::temp_dir();
    /// let caps = Capabilities::default().allow_fs_read([&dir]);
    /// assert!(caps.check_read(&dir.join("x.txt")).is_ok());
    /// ```
    #[must_use]
    pub fn allow_fs_read<I, P>(mut self, roots: I) -> Self
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        if let FsAccess::Roots(list) = &mut self.fs_read {
            list.extend(roots.into_iter().map(|p| p.as_ref().to_owned()));
        }
        self
    }

    /// Allow reading any file the process can read.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().allow_fs_read_any().check_read("/etc/hostname".as_ref()).is_ok());
    /// ```
    #[must_use]
    pub fn allow_fs_read_any(mut self) -> Self {
        self.fs_read = FsAccess::Any;
        self
    }

    /// Restrict `fetch()` to these URL schemes (without the colon, e.g. `["https"]`), on top
    /// of the host and file checks; `data`, `blob` and `about` stay allowed.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let caps = Capabilities::unrestricted().only_schemes(["https"]);
    /// assert!(caps.check_scheme("https").is_ok());
    /// assert!(caps.check_scheme("data").is_ok());
    /// assert!(caps.check_scheme("http").is_err());
    /// ```
    #[must_use]
    pub fn only_schemes<I, S>(mut self, schemes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.schemes = Some(
            schemes
                .into_iter()
                .map(|s| s.as_ref().trim_end_matches(':').to_ascii_lowercase())
                .collect(),
        );
        self
    }

    /// Allow `new Worker()` (a worker runs with its creator's capabilities).
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().allow_worker().worker());
    /// ```
    #[must_use]
    pub fn allow_worker(mut self) -> Self {
        self.worker = true;
        self
    }

    /// Allow reading the process environment.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().allow_env().env());
    /// ```
    #[must_use]
    pub fn allow_env(mut self) -> Self {
        self.env = true;
        self
    }

    /// The hosts `fetch()` may contact.
    pub fn net(&self) -> &NetAccess {
        &self.net
    }

    /// Where `BoaStreams.serve()` may listen.
    pub fn listen(&self) -> &NetAccess {
        &self.listen
    }

    /// The directories that may be read.
    pub fn fs_read(&self) -> &FsAccess {
        &self.fs_read
    }

    /// The schemes `fetch()` is restricted to (`None`: no restriction beyond the others).
    pub fn schemes(&self) -> Option<&[String]> {
        self.schemes.as_deref()
    }

    /// Whether workers may be started.
    pub fn worker(&self) -> bool {
        self.worker
    }

    /// Whether the environment may be read.
    pub fn env(&self) -> bool {
        self.env
    }

    /// May `fetch()` use the URL scheme `scheme` (without the colon)? Only
    /// [`only_schemes`](Self::only_schemes) denies one here; `http`/`https` still need
    /// [`check_connect`](Self::check_connect) and `file` [`check_read`](Self::check_read).
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().check_scheme("https").is_ok());
    /// ```
    pub fn check_scheme(&self, scheme: &str) -> Result<(), Denied> {
        let scheme = scheme.to_ascii_lowercase();
        match &self.schemes {
            Some(list) if !FREE_SCHEMES.contains(&scheme.as_str()) && !list.contains(&scheme) => {
                Err(Denied::new(
                    Capability::Scheme,
                    &format!("the {scheme}: scheme"),
                ))
            }
            _ => Ok(()),
        }
    }

    /// May `fetch()` connect to `host` (a URL's host) on `port` (the URL's port, or its
    /// scheme's default)?
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let denied = Capabilities::default().check_connect("example.com", 443).unwrap_err();
    /// assert_eq!(denied.reason(), "network access needs the net capability (--allow-net)");
    /// let denied = Capabilities::default()
    ///     .allow_net(["example.com"])
    ///     .check_connect("example.org", 443)
    ///     .unwrap_err();
    /// assert_eq!(
    ///     denied.reason(),
    ///     "network access to example.org:443 needs the net capability (--allow-net)"
    /// );
    /// ```
    pub fn check_connect(&self, host: &str, port: u16) -> Result<(), Denied> {
        check_net(&self.net, host, port, "network access", "to")
    }

    /// May `BoaStreams.serve()` listen on `hostname` (as given to `serve`) and `port` (0: any
    /// free port)?
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let denied = Capabilities::default().check_listen("127.0.0.1", 0).unwrap_err();
    /// assert_eq!(denied.reason(), "listening for connections needs the net capability (--allow-net)");
    /// ```
    pub fn check_listen(&self, hostname: &str, port: u16) -> Result<(), Denied> {
        check_net(
            &self.listen,
            hostname,
            port,
            "listening for connections",
            "on",
        )
    }

    /// May the file `path` be read? On success, the canonical path to open (symlinks
    /// followed): open that one, not `path`.
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// let dir = std::env::temp_dir().join(format!("caps-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("app")).unwrap();
    /// let caps = Capabilities::default().allow_fs_read([dir.join("app")]);
    /// assert!(caps.check_read(&dir.join("app/../app/a.js")).is_ok());
    /// assert!(caps.check_read(&dir.join("app/../secret")).is_err());
    /// assert!(caps.check_read(&dir.join("application.js")).is_err());
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn check_read(&self, path: &Path) -> Result<PathBuf, Denied> {
        let resolved = resolve_path(path);
        match &self.fs_read {
            FsAccess::Any => Ok(resolved),
            FsAccess::Roots(roots) if roots.is_empty() => {
                Err(Denied::new(Capability::FsRead, "reading files"))
            }
            FsAccess::Roots(roots) => {
                if roots
                    .iter()
                    .any(|root| resolved.starts_with(resolve_path(root)))
                {
                    Ok(resolved)
                } else {
                    Err(Denied::new(
                        Capability::FsRead,
                        "reading files outside the readable directories",
                    ))
                }
            }
        }
    }

    /// May a worker be started?
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::unrestricted().check_worker().is_ok());
    /// ```
    pub fn check_worker(&self) -> Result<(), Denied> {
        if self.worker {
            Ok(())
        } else {
            Err(Denied::new(Capability::Worker, "starting a worker"))
        }
    }

    /// May the process environment be read (`process.env`)?
    ///
    /// ```
    /// use boa_webidl::capabilities::Capabilities;
    /// assert!(Capabilities::default().check_env().is_err());
    /// assert!(Capabilities::default().allow_env().check_env().is_ok());
    /// ```
    pub fn check_env(&self) -> Result<(), Denied> {
        if self.env {
            Ok(())
        } else {
            Err(Denied::new(Capability::Env, "reading the environment"))
        }
    }
}

fn parse_entries<I, S>(hosts: I) -> Vec<HostPort>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    hosts
        .into_iter()
        .filter_map(|h| HostPort::parse(h.as_ref()).ok())
        .collect()
}

fn check_net(
    access: &NetAccess,
    host: &str,
    port: u16,
    what: &str,
    preposition: &str,
) -> Result<(), Denied> {
    match access {
        NetAccess::None => Err(Denied::new(Capability::Net, what)),
        access if access.admits(host, port) => Ok(()),
        _ => {
            let target = format!("{}:{port}", normalize_host(host));
            Err(Denied::new(
                Capability::Net,
                &format!("{what} {preposition} {target}"),
            ))
        }
    }
}

/// `path` made absolute and canonical: the longest existing ancestor canonicalized (symlinks
/// followed), the rest normalized lexically (`.` dropped, `..` removes a component).
fn resolve_path(path: &Path) -> PathBuf {
    let absolute = if path.is_absolute() {
        path.to_owned()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    if let Ok(canonical) = std::fs::canonicalize(&absolute) {
        return canonical;
    }
    let normalized = normalize(&absolute);
    // Walk up to the longest existing ancestor (bounded by the number of components).
    let mut rest: Vec<std::ffi::OsString> = Vec::new();
    let mut current = normalized.as_path();
    loop {
        if let Ok(canonical) = std::fs::canonicalize(current) {
            let mut out = canonical;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (current.parent(), current.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                current = parent;
            }
            _ => return normalized,
        }
    }
}

/// Lexical normalization: `.` dropped, `..` removes the previous normal component.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_tree(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("caps-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root/sub")).unwrap();
        std::fs::create_dir_all(dir.join("outside")).unwrap();
        std::fs::write(dir.join("root/sub/a.js"), "").unwrap();
        std::fs::write(dir.join("outside/secret"), "").unwrap();
        dir
    }

    #[test]
    fn default_denies_everything_with_authority() {
        let caps = Capabilities::default();
        assert_eq!(
            caps.check_read(Path::new("/etc/passwd"))
                .unwrap_err()
                .capability(),
            Capability::FsRead
        );
        assert_eq!(
            caps.check_connect("127.0.0.1", 80)
                .unwrap_err()
                .capability(),
            Capability::Net
        );
        assert_eq!(
            caps.check_listen("127.0.0.1", 0).unwrap_err().capability(),
            Capability::Net
        );
        assert_eq!(
            caps.check_worker().unwrap_err().capability(),
            Capability::Worker
        );
        assert_eq!(caps.check_env().unwrap_err().capability(), Capability::Env);
        // Schemes are not restricted by themselves.
        assert!(caps.check_scheme("http").is_ok());
    }

    #[test]
    fn unrestricted_allows_everything() {
        let caps = Capabilities::unrestricted();
        assert!(caps.check_read(Path::new("/etc/passwd")).is_ok());
        assert!(caps.check_connect("example.com", 443).is_ok());
        assert!(caps.check_listen("0.0.0.0", 0).is_ok());
        assert!(caps.check_worker().is_ok());
        assert!(caps.check_env().is_ok());
    }

    #[test]
    fn env_denied_and_granted() {
        let denied = Capabilities::default().check_env().unwrap_err();
        assert_eq!(
            denied
                .to_error("process.env")
                .as_native()
                .unwrap()
                .message(),
            "process.env denied: reading the environment needs the env capability (--allow-env)"
        );
        assert!(Capabilities::default().allow_env().check_env().is_ok());
    }

    #[test]
    fn host_lists_match_host_and_port() {
        let caps = Capabilities::default().allow_net(["127.0.0.1:8080", "Example.COM", "[::1]:9"]);
        assert!(caps.check_connect("127.0.0.1", 8080).is_ok());
        assert!(caps.check_connect("127.0.0.1", 8081).is_err());
        assert!(caps.check_connect("example.com", 1).is_ok());
        assert!(caps.check_connect("[::1]", 9).is_ok());
        assert!(caps.check_connect("[::1]", 10).is_err());
        assert!(caps.check_connect("www.example.com", 443).is_err());
        let denied = caps.check_connect("10.0.0.1", 80).unwrap_err();
        assert_eq!(
            denied.reason(),
            "network access to 10.0.0.1:80 needs the net capability (--allow-net)"
        );
        // Adding to Any keeps Any; invalid entries admit nothing.
        let any = Capabilities::default().allow_net_any().allow_net(["x"]);
        assert_eq!(any.net(), &NetAccess::Any);
        let bad = Capabilities::default().allow_net(["a:b:c"]);
        assert_eq!(bad.net(), &NetAccess::Hosts(vec![]));
        assert!(bad.check_connect("a", 1).is_err());
    }

    #[test]
    fn host_port_parsing() {
        assert_eq!(
            HostPort::parse("localhost").unwrap(),
            HostPort {
                host: "localhost".into(),
                port: None
            }
        );
        assert_eq!(HostPort::parse("[::1]:80").unwrap().port, Some(80));
        assert_eq!(HostPort::parse("example.com.").unwrap().host, "example.com");
        for bad in ["", ":80", "[::1", "[]", "a b", "x:", "[::1]x", "a/b"] {
            assert!(HostPort::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(HostPort::parse("h:1").unwrap().to_string(), "h:1");
    }

    #[test]
    fn fs_roots_are_checked_by_component_after_canonicalization() {
        let dir = temp_tree("roots");
        let caps = Capabilities::default().allow_fs_read([dir.join("root")]);
        let ok = caps.check_read(&dir.join("root/sub/a.js")).unwrap();
        assert_eq!(
            ok,
            std::fs::canonicalize(dir.join("root/sub/a.js")).unwrap()
        );
        // Not yet existing files inside are fine, outside are not.
        assert!(caps.check_read(&dir.join("root/new/file.txt")).is_ok());
        assert!(caps
            .check_read(&dir.join("root/../outside/secret"))
            .is_err());
        assert!(caps
            .check_read(&dir.join("root/nope/../../outside/x"))
            .is_err());
        // A sibling whose name starts with the root's is outside.
        std::fs::create_dir_all(dir.join("rootkit")).unwrap();
        assert!(caps.check_read(&dir.join("rootkit/x")).is_err());
        let denied = caps.check_read(&dir.join("outside/secret")).unwrap_err();
        assert_eq!(
            denied.reason(),
            "reading files outside the readable directories needs the fs-read capability (--allow-fs-read)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_before_the_check() {
        let dir = temp_tree("links");
        std::os::unix::fs::symlink(dir.join("outside/secret"), dir.join("root/link")).unwrap();
        std::os::unix::fs::symlink(dir.join("outside"), dir.join("root/dirlink")).unwrap();
        let caps = Capabilities::default().allow_fs_read([dir.join("root")]);
        assert!(caps.check_read(&dir.join("root/link")).is_err());
        assert!(caps.check_read(&dir.join("root/dirlink/secret")).is_err());
        assert!(caps.check_read(&dir.join("root/dirlink/new")).is_err());
        // A root reached through a symlink admits its real files.
        let via_link = Capabilities::default().allow_fs_read([dir.join("root/dirlink")]);
        assert!(via_link.check_read(&dir.join("outside/secret")).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn policy_is_per_context_and_defaults_when_absent() {
        let mut a = Context::default();
        let b = Context::default();
        Capabilities::unrestricted().install(&mut a);
        assert!(Capabilities::of(&a).check_env().is_ok());
        assert!(Capabilities::of(&b).check_env().is_err());
    }

    #[test]
    fn schemes_restriction() {
        let caps = Capabilities::unrestricted().only_schemes(["https:"]);
        assert!(caps.check_scheme("HTTPS").is_ok());
        assert!(caps.check_scheme("blob").is_ok());
        assert!(caps.check_scheme("about").is_ok());
        let denied = caps.check_scheme("file").unwrap_err();
        assert_eq!(denied.capability(), Capability::Scheme);
        assert_eq!(
            denied.reason(),
            "the file: scheme is not allowed by this context's capabilities"
        );
    }
}
