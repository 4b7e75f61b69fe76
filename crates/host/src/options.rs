//! What a `Host` is built with ([`HostOptions`]). A leaf: the `Host` and the workers it
//! starts (which get their creator's) both read it.

use boa_web::capabilities::Capabilities;

/// What the host installs and how the loop behaves.
///
/// [`HostOptions::default()`] is restrictive, as the library is
/// ([`Capabilities::default()`]): no network, no `file:` fetch or import outside the entry
/// script's directory tree, no `serve`, no workers, no environment. Grant what the scripts
/// need in [`capabilities`](Self::capabilities) (the `boa-streams` CLI uses
/// [`Capabilities::unrestricted()`] unless `--permission` is given):
///
/// ```
/// use boa_streams_host::{Capabilities, HostOptions};
///
/// let options = HostOptions {
///     capabilities: Capabilities::default().allow_net(["api.example.com"]).allow_worker(),
///     ..HostOptions::default()
/// };
/// assert!(options.capabilities.check_worker().is_ok());
/// assert!(HostOptions::default().capabilities.check_worker().is_err());
/// ```
#[derive(Debug, Clone)]
pub struct HostOptions {
    /// Expose a global `gc()` that runs a full collection (`boa_gc::force_collect`).
    pub expose_gc: bool,
    /// Use a virtual clock: when only timers are pending, the loop jumps the clock to the
    /// next due timer instead of sleeping (tests and WPT run fast and deterministically), and
    /// moves it on by 1 ms as each script or module starts evaluating.
    pub virtual_time: bool,
    /// Print uncaught errors and unhandled rejections to stderr as they are reported.
    pub print_errors: bool,
    /// What scripts may reach (network, files, `serve`, workers, environment): the
    /// context's [`Capabilities`]. Besides these, the directory tree of the entry script
    /// (the file given to [`Host::eval_file`](struct.Host.html#method.eval_file),
    /// [`Host::eval_module_file`](struct.Host.html#method.eval_module_file) or
    /// [`Host::set_main_script`](struct.Host.html#method.set_main_script)) is readable for
    /// imports and `file:` fetches. Workers run with their creator's. Default:
    /// [`Capabilities::default()`] (everything with authority denied).
    pub capabilities: Capabilities,
}

impl Default for HostOptions {
    fn default() -> Self {
        Self {
            expose_gc: false,
            virtual_time: false,
            print_errors: true,
            capabilities: Capabilities::default(),
        }
    }
}

impl HostOptions {
    /// The default options with every capability granted ([`Capabilities::unrestricted()`]):
    /// what the `boa-streams` CLI runs with unless `--permission` is given.
    ///
    /// ```
    /// use boa_streams_host::{Capabilities, HostOptions};
    /// assert_eq!(HostOptions::unrestricted().capabilities, Capabilities::unrestricted());
    /// ```
    pub fn unrestricted() -> Self {
        Self {
            capabilities: Capabilities::unrestricted(),
            ..Self::default()
        }
    }
}
