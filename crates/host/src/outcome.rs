//! What a run of the host ends with: the errors it reported ([`HostError`]) and why the
//! event loop returned ([`LoopOutcome`]). A leaf: the event loop and the `Host` both speak it.

/// One error the host reported: an uncaught exception from a script or job, or a promise
/// rejection that stayed unhandled after a microtask checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostError {
    /// An exception escaped a script or a job (task or microtask).
    Uncaught {
        message: String,
        stack: Option<String>,
    },
    /// A rejected promise had no handler at the end of the checkpoint in which it was rejected.
    UnhandledRejection {
        message: String,
        stack: Option<String>,
    },
}

/// Why `run_event_loop` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopOutcome {
    /// No microtask and no timer is left.
    Idle,
    /// The deadline passed with work still pending (timers or an endless microtask chain).
    DeadlineReached,
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (prefix, message, stack) = match self {
            HostError::Uncaught { message, stack } => ("Uncaught", message, stack),
            HostError::UnhandledRejection { message, stack } => {
                ("Unhandled promise rejection:", message, stack)
            }
        };
        write!(f, "{prefix} {message}")?;
        if let Some(stack) = stack.as_deref().filter(|s| !s.is_empty()) {
            write!(f, "\n{stack}")?;
        }
        Ok(())
    }
}
