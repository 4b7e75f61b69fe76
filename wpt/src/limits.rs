//! Per-file time limits, in CPU time rather than wall-clock time.
//!
//! A file's work is bounded by the CPU time its child process spends, which a loaded machine
//! (CI's 2 cores shared with other jobs) does not stretch: `FileAPI/idlharness.any.js` spends
//! about 20 s of CPU parsing `interfaces/html.idl`, whatever the load, while its wall-clock
//! time grew past 100 s under load and came near the old wall-clock kill limit. A real hang
//! still ends: an endless loop spends CPU and hits the CPU budget within the same time as
//! before on an idle machine; a child that waits without spending CPU (a deadlock, a future
//! never woken) hits the wall-clock backstop, [`WALL_FACTOR`] times the CPU budget.
//!
//! Where the CPU time cannot be read (not Linux/Unix), only the wall-clock limits apply.

use std::time::Duration;

/// CPU budget of a normal file's child (from its start: set-up, scripts and event loop).
pub const CPU_BUDGET: Duration = Duration::from_secs(30);
/// CPU budget for `// META: timeout=long` (WPT's long timeout; `FileAPI/idlharness.any.js`
/// needs about 20 s).
pub const LONG_CPU_BUDGET: Duration = Duration::from_secs(120);
/// The wall-clock backstop is the CPU budget times this: generous enough for a child that
/// gets a tenth of a core.
pub const WALL_FACTOR: u32 = 10;
/// What the parent allows beyond the child's own budget (start-up, reporting) before it
/// kills the child.
pub const GRACE: Duration = Duration::from_secs(20);

/// The child's own CPU budget for a file.
pub fn cpu_budget(long_timeout: bool) -> Duration {
    if long_timeout {
        LONG_CPU_BUDGET
    } else {
        CPU_BUDGET
    }
}

/// The CPU time this process has spent (all threads), if the platform gives it.
#[cfg(unix)]
pub fn process_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return None;
    }
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    Some(Duration::new(secs, nanos))
}

/// The CPU time this process has spent: not available here.
#[cfg(not(unix))]
pub fn process_cpu_time() -> Option<Duration> {
    None
}

/// The CPU time (user + system, all threads) process `pid` has spent, from
/// `/proc/<pid>/stat` (Linux).
#[cfg(target_os = "linux")]
pub fn child_cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let ticks_per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    parse_stat_cpu(&stat, u64::try_from(ticks_per_second).ok()?)
}

/// The CPU time of another process: not available here.
#[cfg(not(target_os = "linux"))]
pub fn child_cpu_time(_pid: u32) -> Option<Duration> {
    None
}

/// `utime + stime` (fields 14 and 15, in clock ticks) of a `/proc/<pid>/stat` line. The
/// command name (field 2) is in parentheses and may hold spaces and parentheses: the fields
/// are counted after its last `)`.
pub fn parse_stat_cpu(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    if ticks_per_second == 0 {
        return None;
    }
    let after_name = stat.get(stat.rfind(')')? + 1..)?;
    // Field 3 (state) is the first after the name: utime is field 14, stime field 15.
    let mut fields = after_name.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    let ticks = utime.checked_add(stime)?;
    Some(Duration::from_millis(
        ticks.checked_mul(1000)? / ticks_per_second,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_cpu_is_utime_plus_stime_after_the_name() {
        let line = "4242 (wpt (runner) x) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 1 0 100 0 0";
        assert_eq!(parse_stat_cpu(line, 100), Some(Duration::from_millis(3000)));
        assert_eq!(parse_stat_cpu("4242 (x) R 1 2", 100), None);
        assert_eq!(parse_stat_cpu(line, 0), None);
        assert_eq!(parse_stat_cpu("no name", 100), None);
    }

    #[test]
    fn this_process_has_a_cpu_time_that_grows() {
        let Some(before) = process_cpu_time() else {
            return;
        };
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let after = process_cpu_time().unwrap_or_default();
        assert!(after > before, "{after:?} > {before:?}");
        #[cfg(target_os = "linux")]
        {
            let own = child_cpu_time(std::process::id());
            assert!(
                own.is_some_and(|t| t <= after + Duration::from_millis(20)),
                "{own:?}"
            );
        }
    }
}
