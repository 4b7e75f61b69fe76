//! Results of running test files, shared by the child (which prints one) and the parent.

use serde::{Deserialize, Serialize};

/// A subtest's status, as testharness.js reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SubtestStatus {
    Pass,
    Fail,
    Timeout,
    Notrun,
    PreconditionFailed,
}

impl SubtestStatus {
    /// From testharness.js's numeric `Test.status`.
    pub fn from_testharness(code: i64) -> Option<Self> {
        Some(match code {
            0 => Self::Pass,
            1 => Self::Fail,
            2 => Self::Timeout,
            3 => Self::Notrun,
            4 => Self::PreconditionFailed,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pass => "PASS",
            Self::Fail => "FAIL",
            Self::Timeout => "TIMEOUT",
            Self::Notrun => "NOTRUN",
            Self::PreconditionFailed => "PRECONDITION_FAILED",
        }
    }
}

/// The status of a whole file: testharness.js's harness status, plus what the runner saw
/// (`CRASH`: the child died or the engine panicked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HarnessStatus {
    Ok,
    Error,
    Timeout,
    PreconditionFailed,
    Crash,
}

impl HarnessStatus {
    /// From testharness.js's numeric `TestsStatus.status`.
    pub fn from_testharness(code: i64) -> Option<Self> {
        Some(match code {
            0 => Self::Ok,
            1 => Self::Error,
            2 => Self::Timeout,
            3 => Self::PreconditionFailed,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "OK",
            Self::Error => "ERROR",
            Self::Timeout => "TIMEOUT",
            Self::PreconditionFailed => "PRECONDITION_FAILED",
            Self::Crash => "CRASH",
        }
    }
}

/// One subtest result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subtest {
    pub name: String,
    pub status: SubtestStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The result of one test file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileResult {
    /// Corpus-relative path.
    pub path: String,
    pub harness: HarnessStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// False when the child died or was killed before reporting: `subtests` is then empty
    /// and says nothing about the file's subtests.
    pub subtests_reported: bool,
    pub subtests: Vec<Subtest>,
    pub duration_ms: u64,
}

impl FileResult {
    /// A file for which no subtest results exist.
    pub fn without_subtests(path: &str, harness: HarnessStatus, message: String) -> Self {
        Self {
            path: path.to_owned(),
            harness,
            message: Some(message),
            subtests_reported: false,
            subtests: Vec::new(),
            duration_ms: 0,
        }
    }

    pub fn passed(&self) -> usize {
        self.subtests
            .iter()
            .filter(|s| s.status == SubtestStatus::Pass)
            .count()
    }
}

/// Shorten `s` to at most `max` bytes (on a char boundary), marking the cut.
pub fn truncate(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_owned();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [{} more bytes]", &s[..end], s.len() - end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_round_trip_through_json() {
        let json = serde_json::to_string(&SubtestStatus::PreconditionFailed).unwrap();
        assert_eq!(json, "\"PRECONDITION_FAILED\"");
        let back: HarnessStatus = serde_json::from_str("\"CRASH\"").unwrap();
        assert_eq!(back, HarnessStatus::Crash);
        assert_eq!(
            SubtestStatus::from_testharness(3),
            Some(SubtestStatus::Notrun)
        );
        assert_eq!(HarnessStatus::from_testharness(9), None);
    }

    #[test]
    fn truncates_on_char_boundaries() {
        assert_eq!(truncate("abc", 10), "abc");
        let t = truncate("ééé", 3);
        assert!(t.starts_with('é'), "{t}");
        assert!(t.contains("more bytes"));
    }
}
