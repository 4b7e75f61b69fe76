//! `net-campaign`: load, faults and hostile peers against `BoaStreams.serve()` and `fetch()`
//! (issue 26), loopback only, every loop bounded in count and time.
//!
//! ```text
//! net-campaign [--ci | --long] [--boa PATH] [--seed N] [--only PHASE,...]
//! ```
//!
//! It starts `boa-streams --expose-gc benches/net/campaign-server.js 0` (run it from the
//! repository root), then runs the phases below against it, checking after each hostile case
//! that the server still answers everyone else, and the server's own counters (`GET /stats`:
//! live streams, `cancel()` calls and their reasons, `request.signal` aborts) at the end of
//! each phase. Phases: `hostile` (malformed and smuggling-shaped requests, limits, HTTP/1.0,
//! pipelining, slowloris), `disconnect` (a client vanishing at each phase), `faults` (the
//! handler throws, rejects, returns a non-Response, a body that errors mid-way, a self
//! fetch), `slow` (a slow reader: server memory bounded), `upstream` (`fetch()` from a
//! scripted raw-socket server that stalls, resets, lies about lengths), `bomb`
//! (`Content-Encoding: gzip`/`deflate` bodies of 1 MiB inflating to 1 GiB, made at run
//! time, read with a cancelled `for await`, to the end, with `arrayBuffer()` and `text()`;
//! trailing garbage, truncation, a wrong CRC: a TypeError), `load` (small
//! requests over 64 keep-alive connections, concurrent 1 MiB streams, a large stream, an
//! echo, every byte checked), `fuzz` (seeded mutations of request bytes, and of upstream
//! responses under `fetch()`). `--ci` bounds everything to a few minutes; `--long` runs the
//! full figures of the issue (10^5 requests, 1,000 streams, 10 GiB, longer fuzzing).
//! Prints the figures as markdown; exits 1 on any failed check or if the server died.
//!
//! `net-campaign --compare [--ci | --long] [--node PATH] [--deno PATH]` runs the `slow` and
//! `load` phases against boa-streams, then against the same routes served by Node
//! (`benches/net/campaign-server-node.mjs`, `node --expose-gc`) and Deno
//! (`benches/net/campaign-server-deno.js`, `deno run --v8-flags=--expose-gc`; `DENO` in the
//! environment also names it; skipped if absent), and prints the figures side by side with
//! ratios. CI does not run it.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::TokioIo;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Ci,
    Long,
}

struct Scale {
    small_requests: u64,
    streams: usize,
    big_mib: u64,
    echo_mib: u64,
    slow_secs: u64,
    fuzz_cases: u64,
    upstream_fuzz_cases: u64,
    self_fetches: u64,
    /// What the buffering reads (`arrayBuffer()`, `text()`) of a bomb inflate to.
    bomb_buffered_mib: u64,
}

impl Mode {
    fn scale(self) -> Scale {
        match self {
            Mode::Ci => Scale {
                small_requests: 20_000,
                streams: 200,
                big_mib: 1024,
                echo_mib: 64,
                slow_secs: 3,
                fuzz_cases: 2_000,
                upstream_fuzz_cases: 300,
                self_fetches: 500,
                bomb_buffered_mib: 256,
            },
            Mode::Long => Scale {
                small_requests: 100_000,
                streams: 1_000,
                big_mib: 10 * 1024,
                echo_mib: 1024,
                slow_secs: 20,
                fuzz_cases: 50_000,
                upstream_fuzz_cases: 5_000,
                self_fetches: 5_000,
                bomb_buffered_mib: 1024,
            },
        }
    }
}

/// What the campaign found.
#[derive(Default)]
struct Report {
    checks: u64,
    failures: Vec<String>,
    faults_injected: u64,
    faults_survived: u64,
    figures: BTreeMap<String, String>,
    /// Numeric figures for `--compare`'s ratios (higher is better unless the name says MiB).
    metrics: BTreeMap<String, f64>,
}

impl Report {
    fn check(&mut self, ok: bool, what: impl Into<String>) {
        self.checks += 1;
        if !ok {
            let what = what.into();
            eprintln!("FAIL: {what}");
            self.failures.push(what);
        }
    }

    fn figure(&mut self, name: &str, value: impl ToString) {
        let value = value.to_string();
        eprintln!("  {name}: {value}");
        self.figures.insert(name.to_string(), value);
    }

    fn metric(&mut self, name: &str, value: f64) {
        self.metrics.insert(name.to_string(), value);
    }
}

/// The server under test.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(boa: &str) -> Server {
        Server::spawn(&[boa, "--expose-gc", "benches/net/campaign-server.js", "0"])
    }

    /// Run `command` (a campaign server printing its `listening on http://HOST:PORT` line).
    fn spawn(command: &[&str]) -> Server {
        let (program, args) = command.split_first().expect("a command");
        let boa = program;
        let mut child = Command::new(program)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::from(
                std::fs::File::create(std::env::temp_dir().join("net-campaign-server.err"))
                    .expect("a log file"),
            ))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {boa}: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            // Keep draining so the server never blocks on a full pipe.
            for _ in lines {}
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the campaign server did not start");
        let port = line
            .rsplit(':')
            .next()
            .and_then(|p| p.trim().parse().ok())
            .expect("a port on the listening line");
        Server { child, port }
    }

    fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// (VmRSS, VmHWM) in MiB.
    fn rss(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
                / 1024
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

/// What a raw exchange got.
struct Raw {
    bytes: Vec<u8>,
    /// The peer closed the connection (EOF or reset) before the read timeout.
    closed: bool,
    elapsed: Duration,
}

impl Raw {
    fn status(&self) -> Option<u16> {
        let text = std::str::from_utf8(self.bytes.get(..12.min(self.bytes.len()))?).ok()?;
        text.strip_prefix("HTTP/1.")?.get(2..5)?.parse().ok()
    }

    fn statuses(&self) -> Vec<u16> {
        let text = String::from_utf8_lossy(&self.bytes);
        text.match_indices("HTTP/1.")
            .filter_map(|(i, _)| text.get(i + 9..i + 12)?.parse().ok())
            .collect()
    }
}

/// Send `request` on a fresh connection (then half-close if `half_close`) and read until the
/// peer closes, `limit` bytes, or `timeout`.
fn raw(port: u16, request: &[u8], half_close: bool, limit: usize, timeout: Duration) -> Raw {
    let start = Instant::now();
    let Ok(mut socket) = TcpStream::connect(("127.0.0.1", port)) else {
        return Raw {
            bytes: Vec::new(),
            closed: true,
            elapsed: start.elapsed(),
        };
    };
    let _ = socket.set_write_timeout(Some(timeout));
    let _ = socket.write_all(request);
    if half_close {
        let _ = socket.shutdown(Shutdown::Write);
    }
    let mut bytes = Vec::new();
    let mut buf = vec![0u8; 65536];
    let mut closed = false;
    while start.elapsed() < timeout && bytes.len() < limit {
        let left = timeout
            .saturating_sub(start.elapsed())
            .max(Duration::from_millis(1));
        let _ = socket.set_read_timeout(Some(left));
        match socket.read(&mut buf) {
            Ok(0) => {
                closed = true;
                break;
            }
            Ok(n) => bytes.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                break
            }
            Err(_) => {
                // A reset.
                closed = true;
                break;
            }
        }
    }
    Raw {
        bytes,
        closed,
        elapsed: start.elapsed(),
    }
}

/// `GET path` with `Connection: close`: (status, body) or None.
fn get(port: u16, path: &str, timeout: Duration) -> Option<(u16, Vec<u8>)> {
    let r = raw(
        port,
        format!("GET {path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n").as_bytes(),
        false,
        64 << 20,
        timeout,
    );
    let status = r.status()?;
    let split = r.bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&r.bytes[..split]).to_ascii_lowercase();
    let body = r.bytes[split + 4..].to_vec();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(&body)?
    } else {
        body
    };
    Some((status, body))
}

/// The payload of a complete chunked body (None if it is truncated or malformed).
fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for _ in 0..1_000_000 {
        let end = rest.windows(2).position(|w| w == b"\r\n")?;
        let size = usize::from_str_radix(std::str::from_utf8(&rest[..end]).ok()?, 16).ok()?;
        rest = rest.get(end + 2..)?;
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size + 2..)?;
    }
    None
}

fn healthy(port: u16) -> bool {
    matches!(get(port, "/", Duration::from_secs(10)), Some((200, body)) if body == b"ok\n")
}

fn stats(port: u16, gc: bool) -> serde_json::Value {
    let path = if gc { "/stats?gc=1" } else { "/stats" };
    get(port, path, Duration::from_secs(20))
        .and_then(|(_, body)| serde_json::from_slice(&body).ok())
        .unwrap_or(serde_json::Value::Null)
}

fn stat(s: &serde_json::Value, name: &str) -> i64 {
    s.get(name)
        .and_then(serde_json::Value::as_f64)
        .unwrap_or(-1.0) as i64
}

/// Wait (bounded) until the server's counters satisfy `ok`.
fn settle(port: u16, secs: u64, ok: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let s = stats(port, false);
        if ok(&s) || Instant::now() > deadline {
            return s;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn pattern_ok(offset: u64, chunk: &[u8]) -> u64 {
    chunk
        .iter()
        .enumerate()
        .filter(|(i, b)| **b != ((offset + *i as u64) % 251) as u8)
        .count() as u64
}

// ---------------------------------------------------------------------------------------
// hostile peers

enum Expect {
    /// This status, then anything.
    Status(u16),
    /// A 4xx status, or the connection closed with no response.
    Rejected,
    /// At most one response, and no 2xx for the smuggled part.
    NoSmuggling,
    /// Exactly these statuses, in order.
    Statuses(&'static [u16]),
    /// A malformed request body: the handler's read of `request.body` fails (here the
    /// handler rethrows: 500), never a 2xx, and the connection is closed.
    BodyError,
}

fn hostile(port: u16, report: &mut Report) {
    let mut cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("malformed request line", b"GARBAGE\r\n\r\n".to_vec(), Expect::Rejected),
        ("bad method token", b"G@T / HTTP/1.1\r\nhost: x\r\n\r\n".to_vec(), Expect::Rejected),
        ("header without colon", b"GET / HTTP/1.1\r\nhost x\r\n\r\n".to_vec(), Expect::Rejected),
        ("space in header name", b"GET / HTTP/1.1\r\nho st: x\r\n\r\n".to_vec(), Expect::Rejected),
        ("NUL in header value", b"GET / HTTP/1.1\r\nhost: x\r\nx-a: a\0b\r\n\r\n".to_vec(), Expect::Rejected),
        ("bare LF line ends", b"GET / HTTP/1.1\nhost: x\n\n".to_vec(), Expect::Status(200)),
        ("unknown version", b"GET / HTTP/3.7\r\nhost: x\r\n\r\n".to_vec(), Expect::Rejected),
        ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec(), Expect::Rejected),
        ("obs-fold", b"GET / HTTP/1.1\r\nhost: x\r\nx-a: b\r\n c\r\n\r\n".to_vec(), Expect::Rejected),
        (
            "duplicate Content-Length, different",
            b"POST /count HTTP/1.1\r\nhost: x\r\ncontent-length: 3\r\ncontent-length: 4\r\n\r\nabcd".to_vec(),
            Expect::Rejected,
        ),
        (
            "negative Content-Length",
            b"POST /count HTTP/1.1\r\nhost: x\r\ncontent-length: -1\r\n\r\n".to_vec(),
            Expect::Rejected,
        ),
        (
            "CL+TE smuggling",
            b"POST /count HTTP/1.1\r\nhost: x\r\ncontent-length: 4\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nhost: x\r\n\r\n".to_vec(),
            Expect::NoSmuggling,
        ),
        (
            "TE+CL smuggling",
            b"POST /count HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\ncontent-length: 40\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\nhost: x\r\n\r\n".to_vec(),
            Expect::NoSmuggling,
        ),
        (
            "TE not chunked last",
            b"POST /count HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked, identity\r\n\r\n0\r\n\r\n".to_vec(),
            Expect::Rejected,
        ),
        (
            "bad chunk size",
            b"POST /count HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n".to_vec(),
            Expect::BodyError,
        ),
        (
            "chunk size overflow",
            b"POST /count HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFF\r\nabc\r\n".to_vec(),
            Expect::BodyError,
        ),
        (
            "chunk longer than its size",
            b"POST /count HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabcdef\r\n0\r\n\r\n".to_vec(),
            Expect::BodyError,
        ),
        ("HTTP/1.0", b"GET / HTTP/1.0\r\n\r\n".to_vec(), Expect::Status(200)),
        (
            "pipelined requests",
            b"GET / HTTP/1.1\r\nhost: x\r\n\r\nGET /nope HTTP/1.1\r\nhost: x\r\n\r\nGET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".to_vec(),
            Expect::Statuses(&[200, 404, 200]),
        ),
        // RFC 9112 section 3.2: an HTTP/1.1 request without Host gets 400.
        ("host missing (HTTP/1.1)", b"GET / HTTP/1.1\r\n\r\n".to_vec(), Expect::Status(400)),
        ("absolute-form target", b"GET http://evil.example/ HTTP/1.1\r\nhost: x\r\n\r\n".to_vec(), Expect::Status(200)),
        ("binary junk", (0..65536u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect(), Expect::Rejected),
    ];
    {
        let mut r = b"GET / HTTP/1.1\r\nhost: x\r\nx-big: ".to_vec();
        r.extend(std::iter::repeat_n(b'a', 1 << 20));
        r.extend_from_slice(b"\r\n\r\n");
        cases.push(("1 MiB header line", r, Expect::Rejected));
        let mut r = b"GET / HTTP/1.1\r\nhost: x\r\n".to_vec();
        for i in 0..100_000 {
            r.extend_from_slice(format!("x-h{i}: v\r\n").as_bytes());
        }
        r.extend_from_slice(b"\r\n");
        cases.push(("10^5 headers", r, Expect::Rejected));
        let mut r = b"GET /".to_vec();
        r.extend(std::iter::repeat_n(b'a', 200_000));
        r.extend_from_slice(b" HTTP/1.1\r\nhost: x\r\n\r\n");
        cases.push(("200 KB request target", r, Expect::Rejected));
        let mut r = b"GET / HTTP/1.1\r\nhost: x\r\n".to_vec();
        for _ in 0..200 {
            r.extend_from_slice(b"cookie: a=b\r\n");
        }
        r.extend_from_slice(b"\r\n");
        cases.push(("200 repeated headers", r, Expect::Rejected));
    }
    for (name, request, expect) in cases {
        report.faults_injected += 1;
        // Not half-closed (the server takes a half-close for a client going away); a
        // connection kept alive after its answers ends the read after 3 s.
        let r = raw(port, &request, false, 1 << 20, Duration::from_secs(3));
        let ok = match expect {
            Expect::Status(s) => r.status() == Some(s),
            Expect::Rejected => match r.status() {
                Some(s) => (400..500).contains(&s),
                None => r.closed,
            },
            Expect::NoSmuggling => {
                let statuses = r.statuses();
                statuses.len() <= 1 && r.closed
            }
            Expect::Statuses(want) => r.statuses() == want,
            Expect::BodyError => r.status().is_some_and(|s| s >= 400) && r.closed,
        };
        let alive = healthy(port);
        eprintln!(
            "  hostile {name}: {:?} closed={} in {:?}",
            r.statuses(),
            r.closed,
            r.elapsed
        );
        report.check(
            ok,
            format!(
                "hostile {name}: got {:?} (closed {})",
                r.statuses(),
                r.closed
            ),
        );
        report.check(alive, format!("server healthy after hostile {name}"));
        if ok && alive {
            report.faults_survived += 1;
        }
    }
}

/// Slowloris: one byte per second. The server must keep serving others meanwhile, and (long
/// mode) cut the connection at its 30 s header timeout.
fn slowloris(port: u16, secs: u64) -> (bool, Option<Duration>) {
    let start = Instant::now();
    let Ok(mut socket) = TcpStream::connect(("127.0.0.1", port)) else {
        return (false, None);
    };
    let request = b"GET / HTTP/1.1\r\nhost: x\r\nx-slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let mut served_meanwhile = true;
    for (i, b) in request.iter().cycle().take(secs as usize).enumerate() {
        if socket.write_all(&[*b]).is_err() {
            return (served_meanwhile, Some(start.elapsed()));
        }
        if i % 5 == 0 {
            served_meanwhile &= healthy(port);
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    // Did the server close it?
    let _ = socket.set_read_timeout(Some(Duration::from_millis(200)));
    let mut buf = [0u8; 256];
    let cut = match socket.read(&mut buf) {
        Ok(0) => Some(start.elapsed()),
        Ok(_) => Some(start.elapsed()),
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => Some(start.elapsed()),
        Err(_) => None,
    };
    (served_meanwhile, cut)
}

// ---------------------------------------------------------------------------------------
// clients vanishing, script faults, slow readers

fn disconnects(port: u16, report: &mut Report) {
    let before = stats(port, false);
    // 1. mid-head.
    if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
        let _ = s.write_all(b"GET /hold HTTP/1.1\r\nhost: x\r\nx-a");
        std::thread::sleep(Duration::from_millis(100));
    }
    // 2. after the head, before the response (the handler waits for the abort).
    for _ in 0..3 {
        if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
            let _ = s.write_all(b"GET /hold HTTP/1.1\r\nhost: x\r\n\r\n");
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    // 3. mid-body of a stream.
    for _ in 0..3 {
        let r = raw(
            port,
            b"GET /stream?mib=64 HTTP/1.1\r\nhost: x\r\n\r\n",
            false,
            200_000,
            Duration::from_secs(10),
        );
        report.check(
            r.bytes.len() >= 200_000,
            "mid-body disconnect: got the first bytes",
        );
    }
    // 4. during a pending pull() that never settles.
    for _ in 0..3 {
        let r = raw(
            port,
            b"GET /never HTTP/1.1\r\nhost: x\r\n\r\n",
            false,
            usize::MAX,
            Duration::from_millis(500),
        );
        report.check(
            r.status() == Some(200) && !r.closed,
            "pending pull(): the response waits (not closed, no timeout on our side)",
        );
    }
    // 5. a request body the client abandons (POST /count with a Content-Length never met).
    if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
        let _ = s.write_all(
            b"POST /count HTTP/1.1\r\nhost: x\r\ncontent-length: 1000000000000\r\n\r\n0123456789",
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    report.faults_injected += 11;
    let before_cancels = stat(&before, "cancels");
    let before_aborts = stat(&before, "aborts");
    let after = settle(port, 10, |s| {
        stat(s, "liveStreams") == 0
            && stat(s, "holding") == 0
            && stat(s, "cancels") >= before_cancels + 6
    });
    let cancels = stat(&after, "cancels") - before_cancels;
    let aborts = stat(&after, "aborts") - before_aborts;
    report.figure("disconnects: source cancel() calls", cancels);
    report.figure("disconnects: request.signal aborts", aborts);
    let ok = stat(&after, "liveStreams") == 0
        && stat(&after, "holding") == 0
        && cancels == 6
        && aborts >= 9
        && stat(&after, "doubleCancels") == 0
        && stat(&after, "cancelsWithoutReason") == 0;
    report.check(ok, format!("disconnects: every source cancelled once with a reason, every signal aborted, nothing pending: {after}"));
    if ok {
        report.faults_survived += 11;
    }
}

fn faults(port: u16, report: &mut Report) {
    for path in ["/throw", "/reject", "/nonresponse"] {
        report.faults_injected += 1;
        let got = get(port, path, Duration::from_secs(10)).map(|(s, _)| s);
        report.check(got == Some(500), format!("{path} gives 500 (got {got:?})"));
        if got == Some(500) {
            report.faults_survived += 1;
        }
    }
    // A body that errors mid-way: a truncated chunked body and a closed connection, never a
    // complete short body.
    report.faults_injected += 1;
    let r = raw(
        port,
        b"GET /error-mid HTTP/1.1\r\nhost: x\r\n\r\n",
        false,
        16 << 20,
        Duration::from_secs(10),
    );
    let body = r
        .bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| r.bytes[i + 4..].to_vec())
        .unwrap_or_default();
    let truncated = r.status() == Some(200) && r.closed && dechunk(&body).is_none();
    report.check(
        truncated,
        format!(
            "/error-mid: truncated and closed (closed {}, {} body bytes, complete {})",
            r.closed,
            body.len(),
            dechunk(&body).is_some()
        ),
    );
    if truncated {
        report.faults_survived += 1;
    }
    // A handler re-entering fetch() of its own server.
    report.faults_injected += 1;
    let got = get(port, "/self?mib=4", Duration::from_secs(30));
    let ok = matches!(&got, Some((200, b)) if b.len() == 4 << 20 && pattern_ok(0, b) == 0);
    report.check(
        ok,
        "/self: a handler fetch()ing its own server streams 4 MiB intact",
    );
    if ok {
        report.faults_survived += 1;
    }
}

fn slow_reader(server: &Server, secs: u64, report: &mut Report) {
    let port = server.port;
    let before = stats(port, true);
    let (rss0, _) = server.rss();
    let Ok(mut socket) = TcpStream::connect(("127.0.0.1", port)) else {
        report.check(false, "slow reader: connect");
        return;
    };
    let _ = socket.write_all(b"GET /stream?mib=4096 HTTP/1.1\r\nhost: x\r\n\r\n");
    let _ = socket.set_read_timeout(Some(Duration::from_secs(5)));
    let mut read = 0u64;
    let mut buf = [0u8; 1024];
    let start = Instant::now();
    let mut rss_max = rss0;
    let mut i = 0u64;
    while start.elapsed() < Duration::from_secs(secs) {
        match socket.read(&mut buf) {
            Ok(n) if n > 0 => read += n as u64,
            _ => break,
        }
        i += 1;
        if i.is_multiple_of(50) {
            rss_max = rss_max.max(server.rss().0);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mid = stats(port, false);
    let produced = stat(&mid, "produced") - stat(&before, "produced");
    drop(socket);
    let ahead = produced as f64 / 1048576.0 - read as f64 / 1048576.0;
    report.figure("slow reader: read (KiB)", read / 1024);
    report.figure(
        "slow reader: produced ahead of the reader (MiB)",
        format!("{ahead:.1}"),
    );
    report.figure(
        "slow reader: server RSS before / max during (MiB)",
        format!("{rss0} / {rss_max}"),
    );
    report.metric("slow reader: produced ahead (MiB)", ahead);
    report.metric("slow reader: server RSS max during (MiB)", rss_max as f64);
    // Socket buffers on loopback hold a few MiB; the body is 4 GiB.
    report.check(
        ahead < 16.0,
        format!("slow reader: the server produced {ahead:.1} MiB ahead of the reader"),
    );
    report.check(
        rss_max < rss0 + 64,
        format!("slow reader: server RSS grew from {rss0} to {rss_max} MiB"),
    );
    let after = settle(port, 10, |s| stat(s, "liveStreams") == 0);
    report.check(
        stat(&after, "liveStreams") == 0,
        "slow reader: the stream was cancelled",
    );
}

// ---------------------------------------------------------------------------------------
// fetch() against a scripted upstream

/// A raw upstream answering each connection with the next of `answers` (then closing, or
/// stalling if the answer ends with the marker `STALL`).
fn scripted_upstream(answers: Vec<Vec<u8>>) -> (u16, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let port = listener.local_addr().expect("addr").port();
    let handle = std::thread::spawn(move || {
        for answer in answers {
            let Ok((mut socket, _)) = listener.accept() else {
                return;
            };
            let _ = socket.set_read_timeout(Some(Duration::from_secs(5)));
            // Read the request head (bounded).
            let mut head = Vec::new();
            let mut buf = [0u8; 4096];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 65536 {
                match socket.read(&mut buf) {
                    Ok(n) if n > 0 => head.extend_from_slice(&buf[..n]),
                    _ => break,
                }
            }
            let stall = answer.ends_with(b"STALL");
            let body = if stall {
                &answer[..answer.len() - 5]
            } else {
                &answer[..]
            };
            let _ = socket.write_all(body);
            if stall {
                // Hold the connection open until the client gives up (bounded).
                let _ = socket.set_read_timeout(Some(Duration::from_secs(10)));
                let _ = socket.read(&mut buf);
            }
        }
    });
    (port, handle)
}

fn fetch_via(port: u16, upstream: u16, ms: u64) -> serde_json::Value {
    get(
        port,
        &format!("/fetch?ms={ms}&url=http://127.0.0.1:{upstream}/x"),
        Duration::from_secs(20),
    )
    .and_then(|(_, b)| serde_json::from_slice(&b).ok())
    .unwrap_or(serde_json::Value::Null)
}

fn upstream_faults(port: u16, report: &mut Report) {
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "reset mid-body",
            b"HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\nabcdef".to_vec(),
            "TypeError",
        ),
        (
            "stall mid-body (AbortSignal.timeout)",
            b"HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\nabcdefSTALL".to_vec(),
            "TimeoutError",
        ),
        ("stall before the head", b"STALL".to_vec(), "TimeoutError"),
        (
            "huge Content-Length that never comes",
            b"HTTP/1.1 200 OK\r\ncontent-length: 999999999999\r\n\r\nabcSTALL".to_vec(),
            "TimeoutError",
        ),
        (
            "garbage status line",
            b"HTTP/9 xyz\r\n\r\n".to_vec(),
            "TypeError",
        ),
        (
            "truncated chunked body",
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nabc".to_vec(),
            "TypeError",
        ),
        (
            "bad chunk size",
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nqq\r\nabc\r\n0\r\n\r\n".to_vec(),
            "TypeError",
        ),
        ("closed with no answer", Vec::new(), "TypeError"),
    ];
    for (name, answer, want) in cases {
        report.faults_injected += 1;
        let (upstream, handle) = scripted_upstream(vec![answer]);
        let start = Instant::now();
        let got = fetch_via(port, upstream, 1000);
        let _ = handle.join();
        let error = got.get("error").and_then(|e| e.as_str()).unwrap_or("");
        let ok = error == want && start.elapsed() < Duration::from_secs(15);
        eprintln!("  upstream {name}: {got} in {:?}", start.elapsed());
        report.check(
            ok,
            format!("fetch() from an upstream that does '{name}': want {want}, got {got}"),
        );
        if ok {
            report.faults_survived += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------
// decompression bombs and corrupt codings under fetch()

/// `size` zero bytes as raw DEFLATE (about 1/1000 of `size`), compressed here at run time.
fn raw_deflate_zeros(size: u64) -> Vec<u8> {
    use flate2::write::DeflateEncoder;
    let mut encoder = DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        encoder.write_all(&zeros[..n]).expect("in memory");
        left -= n as u64;
    }
    encoder.finish().expect("in memory")
}

/// `raw` (the DEFLATE of `size` zeros) in a gzip member (RFC 1952).
fn gzip_zeros(raw: &[u8], size: u64) -> Vec<u8> {
    let mut crc = crc32fast::Hasher::new();
    let zeros = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        crc.update(&zeros[..n]);
        left -= n as u64;
    }
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];
    out.extend_from_slice(raw);
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(&(size as u32).to_le_bytes());
    out
}

/// `raw` (the DEFLATE of `size` zeros) in a zlib stream (RFC 1950): HTTP's `deflate`.
fn zlib_zeros(raw: &[u8], size: u64) -> Vec<u8> {
    // Adler-32 of `size` zeros: a stays 1, b adds a for every byte.
    let adler = ((size % 65521) << 16 | 1) as u32;
    let mut out = vec![0x78, 0xda];
    out.extend_from_slice(raw);
    out.extend_from_slice(&adler.to_be_bytes());
    out
}

/// A raw upstream answering one connection with `head` + `body`, then waiting (bounded) for
/// the client to close: when the connection was seen closed (write failed, EOF or reset),
/// measured from the first byte written, or None if it stayed open for `wait` after.
fn bomb_upstream(
    coding: &str,
    body: Vec<u8>,
    wait: Duration,
) -> (u16, std::thread::JoinHandle<Option<Duration>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let port = listener.local_addr().expect("addr").port();
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-encoding: {coding}\r\ncontent-length: {}\r\ncontent-type: application/octet-stream\r\n\r\n",
        body.len()
    );
    let handle = std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().ok()?;
        let _ = socket.set_read_timeout(Some(Duration::from_secs(10)));
        let _ = socket.set_write_timeout(Some(Duration::from_secs(30)));
        let mut buf = [0u8; 4096];
        let mut request = Vec::new();
        while !request.windows(4).any(|w| w == b"\r\n\r\n") && request.len() < 65536 {
            match socket.read(&mut buf) {
                Ok(n) if n > 0 => request.extend_from_slice(&buf[..n]),
                _ => return None,
            }
        }
        let start = Instant::now();
        if socket.write_all(head.as_bytes()).is_err() || socket.write_all(&body).is_err() {
            return Some(start.elapsed());
        }
        let _ = socket.set_read_timeout(Some(wait));
        match socket.read(&mut buf) {
            Ok(0) => Some(start.elapsed()),
            Ok(_) => None,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                None
            }
            Err(_) => Some(start.elapsed()),
        }
    });
    (port, handle)
}

/// The server's largest VmRSS (MiB) while `f` runs, sampled every 20 ms.
fn rss_during<T>(server: &Server, f: impl FnOnce() -> T) -> (T, u64) {
    let pid = server.child.id();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut max = 0u64;
            while !done.load(Ordering::Relaxed) {
                let status =
                    std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                let rss = status
                    .lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0)
                    / 1024;
                max = max.max(rss);
                std::thread::sleep(Duration::from_millis(20));
            }
            max
        })
    };
    let out = f();
    done.store(true, Ordering::Relaxed);
    (out, sampler.join().unwrap_or(0))
}

fn bombs(server: &Server, buffered_mib: u64, report: &mut Report) {
    let port = server.port;
    const BOMB: u64 = 1 << 30;
    let start = Instant::now();
    let raw = raw_deflate_zeros(BOMB);
    let gzip = gzip_zeros(&raw, BOMB);
    let zlib = zlib_zeros(&raw, BOMB);
    let small = buffered_mib << 20;
    let raw_small = raw_deflate_zeros(small);
    let gzip_small = gzip_zeros(&raw_small, small);
    report.figure(
        "decompression bomb (1 GiB of zeros)",
        format!(
            "gzip {} KiB, deflate {} KiB (made in {:.1} s)",
            gzip.len() >> 10,
            zlib.len() >> 10,
            start.elapsed().as_secs_f64()
        ),
    );
    let mut trailing = gzip_small.clone();
    trailing.extend_from_slice(b"trailing garbage after the gzip member");
    let truncated = gzip_small[..gzip_small.len() / 2].to_vec();
    let mut bad_crc = gzip_small.clone();
    let crc_at = bad_crc.len() - 8;
    bad_crc[crc_at] ^= 0xff;

    struct Case {
        name: &'static str,
        coding: &'static str,
        body: Vec<u8>,
        how: &'static str,
        /// Ok(bytes) or Err(error name).
        want: Result<u64, &'static str>,
        /// The connection to the upstream must be dropped (the body was not read to its end).
        dropped: bool,
    }
    let cases = vec![
        Case {
            name: "gzip bomb, for await cancelled after 16 MiB",
            coding: "gzip",
            body: gzip.clone(),
            how: "cancel",
            want: Ok(16 << 20),
            dropped: true,
        },
        Case {
            name: "deflate bomb, for await cancelled after 16 MiB",
            coding: "deflate",
            body: zlib,
            how: "cancel",
            want: Ok(16 << 20),
            dropped: true,
        },
        Case {
            name: "gzip bomb, for await to the end",
            coding: "gzip",
            body: gzip,
            how: "read",
            want: Ok(BOMB),
            dropped: false,
        },
        Case {
            name: "gzip bomb, arrayBuffer()",
            coding: "gzip",
            body: gzip_small.clone(),
            how: "arrayBuffer",
            want: Ok(small),
            dropped: false,
        },
        Case {
            name: "gzip bomb, text()",
            coding: "gzip",
            body: gzip_small,
            how: "text",
            want: Ok(small),
            dropped: false,
        },
        Case {
            name: "gzip with trailing garbage",
            coding: "gzip",
            body: trailing,
            how: "read",
            want: Err("TypeError"),
            dropped: false,
        },
        Case {
            name: "gzip stream truncated",
            coding: "gzip",
            body: truncated,
            how: "read",
            want: Err("TypeError"),
            dropped: false,
        },
        Case {
            name: "gzip with a wrong CRC",
            coding: "gzip",
            body: bad_crc,
            how: "read",
            want: Err("TypeError"),
            dropped: false,
        },
    ];
    for case in cases {
        report.faults_injected += 1;
        let (rss0, _) = server.rss();
        // A body read to its end leaves the connection to the pool: no need to wait long.
        let wait = Duration::from_secs(if case.dropped { 10 } else { 1 });
        let (upstream, handle) = bomb_upstream(case.coding, case.body, wait);
        let started = Instant::now();
        let (got, rss_max) = rss_during(server, || {
            get(
                port,
                &format!(
                    "/bomb?how={}&mib=16&ms=120000&url=http://127.0.0.1:{upstream}/x",
                    case.how
                ),
                Duration::from_secs(180),
            )
            .and_then(|(_, b)| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .unwrap_or(serde_json::Value::Null)
        });
        let secs = started.elapsed().as_secs_f64();
        let closed = handle.join().ok().flatten();
        let bytes = got.get("bytes").and_then(serde_json::Value::as_u64);
        let error = got.get("error").and_then(|e| e.as_str());
        let result_ok = match case.want {
            // A cancelled read gets at least what it waited for and stops soon after.
            Ok(n) if case.how == "cancel" => {
                error.is_none() && bytes.is_some_and(|b| b >= n && b < n + (4 << 20))
            }
            Ok(n) => error.is_none() && bytes == Some(n),
            Err(name) => error == Some(name),
        };
        let grew = rss_max.saturating_sub(rss0);
        // Memory: a streamed read holds a bounded window; a buffering read holds what it
        // asked for (the bytes, plus a copy while the buffer is made, plus the JS string).
        let bound = match case.how {
            "arrayBuffer" | "text" => 4 * (case.want.unwrap_or(0) >> 20) + 64,
            _ => 64,
        };
        eprintln!(
            "  {}: {got} in {secs:.1} s, server RSS {rss0} -> max {rss_max} MiB, upstream connection closed: {closed:?}",
            case.name
        );
        report.figure(
            &format!("bomb: {}", case.name),
            format!(
                "{}; server RSS +{grew} MiB; {secs:.1} s{}",
                match (bytes, error) {
                    (_, Some(e)) => e.to_string(),
                    (Some(b), None) => format!("{} MiB read", b >> 20),
                    _ => "no answer".into(),
                },
                if case.dropped {
                    format!(
                        "; upstream connection dropped after {}",
                        closed.map_or("(not within 10 s)".into(), |d| format!(
                            "{:.1} s",
                            d.as_secs_f64()
                        ))
                    )
                } else {
                    String::new()
                }
            ),
        );
        let ok = result_ok && grew <= bound && (!case.dropped || closed.is_some());
        report.check(
            ok,
            format!(
                "{}: got {got}, server RSS +{grew} MiB (bound {bound}), upstream closed {closed:?}",
                case.name
            ),
        );
        if ok && healthy(port) {
            report.faults_survived += 1;
        }
    }
}

// ---------------------------------------------------------------------------------------
// load

type Sender = hyper::client::conn::http1::SendRequest<Empty<Bytes>>;

async fn connect(port: u16) -> Result<Sender, String> {
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

fn request(path: &str) -> http::Request<Empty<Bytes>> {
    http::Request::builder()
        .uri(path)
        .header(http::header::HOST, "127.0.0.1")
        .body(Empty::new())
        .expect("a request")
}

/// GET `path` on `sender`, read the body: (status, bytes, wrong bytes against the pattern).
async fn fetch_checked(
    sender: &mut Sender,
    path: &str,
    check: bool,
) -> Result<(u16, u64, u64), String> {
    sender.ready().await.map_err(|e| e.to_string())?;
    let response = sender
        .send_request(request(path))
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let mut body = response.into_body();
    let (mut n, mut bad) = (0u64, 0u64);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| e.to_string())?;
        if let Ok(data) = frame.into_data() {
            if check {
                bad += pattern_ok(n, &data);
            }
            n += data.len() as u64;
        }
    }
    Ok((status, n, bad))
}

fn load(server: &Server, scale: &Scale, report: &mut Report) {
    let port = server.port;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let base = stats(port, true);
    let (rss_start, _) = server.rss();
    report.figure("server RSS at the start of load (MiB)", rss_start);
    let bytes_checked = Arc::new(AtomicU64::new(0));

    // Small requests over 64 keep-alive connections.
    let total = scale.small_requests;
    let issued = Arc::new(AtomicU64::new(0));
    let ok = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let start = Instant::now();
    rt.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..64 {
            let (issued, ok, errors, checked) = (
                issued.clone(),
                ok.clone(),
                errors.clone(),
                bytes_checked.clone(),
            );
            tasks.push(tokio::spawn(async move {
                let mut sender = match connect(port).await {
                    Ok(s) => s,
                    Err(e) => return errors.lock().expect("lock").push(e),
                };
                while issued.fetch_add(1, Ordering::Relaxed) < total {
                    match fetch_checked(&mut sender, "/", false).await {
                        Ok((200, 3, _)) => {
                            ok.fetch_add(1, Ordering::Relaxed);
                            checked.fetch_add(3, Ordering::Relaxed);
                        }
                        Ok(other) => errors.lock().expect("lock").push(format!("{other:?}")),
                        Err(e) => return errors.lock().expect("lock").push(e),
                    }
                }
            }));
        }
        let _ = tokio::time::timeout(Duration::from_secs(600), async {
            for t in tasks {
                let _ = t.await;
            }
        })
        .await;
    });
    let secs = start.elapsed().as_secs_f64();
    let ok = ok.load(Ordering::Relaxed);
    report.metric("small requests (req/s)", ok as f64 / secs);
    report.figure(
        "small requests over 64 keep-alive connections",
        format!(
            "{ok}/{total} in {secs:.1} s ({:.0} req/s)",
            ok as f64 / secs
        ),
    );
    report.check(
        ok == total,
        format!(
            "small requests: {ok}/{total}, errors {:?}",
            errors
                .lock()
                .expect("lock")
                .iter()
                .take(3)
                .collect::<Vec<_>>()
        ),
    );
    let (_, hwm) = server.rss();
    report.figure("server peak RSS after small requests (MiB)", hwm);

    // Concurrent 1 MiB streams.
    let n = scale.streams;
    let good = Arc::new(AtomicUsize::new(0));
    let bad_bytes = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    rt.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..n {
            let (good, bad_bytes, checked) =
                (good.clone(), bad_bytes.clone(), bytes_checked.clone());
            tasks.push(tokio::spawn(async move {
                let Ok(mut sender) = connect(port).await else {
                    return;
                };
                if let Ok((200, len, bad)) = fetch_checked(&mut sender, "/stream?mib=1", true).await
                {
                    checked.fetch_add(len, Ordering::Relaxed);
                    bad_bytes.fetch_add(bad, Ordering::Relaxed);
                    if len == 1 << 20 && bad == 0 {
                        good.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }));
        }
        let _ = tokio::time::timeout(Duration::from_secs(600), async {
            for t in tasks {
                let _ = t.await;
            }
        })
        .await;
    });
    let good = good.load(Ordering::Relaxed);
    report.metric(
        "concurrent 1 MiB streams (MB/s)",
        (good << 20) as f64 / 1e6 / start.elapsed().as_secs_f64(),
    );
    report.figure(
        "concurrent 1 MiB streams held",
        format!("{good}/{n} in {:.1} s", start.elapsed().as_secs_f64()),
    );
    report.check(
        good == n && bad_bytes.load(Ordering::Relaxed) == 0,
        format!("concurrent streams: {good}/{n} intact"),
    );
    let (_, hwm) = server.rss();
    report.figure("server peak RSS after concurrent streams (MiB)", hwm);

    // One large stream, and an echo.
    let big = scale.big_mib;
    let start = Instant::now();
    let got = rt.block_on(async {
        let mut sender = connect(port).await?;
        fetch_checked(&mut sender, &format!("/stream?mib={big}"), true).await
    });
    let secs = start.elapsed().as_secs_f64();
    match got {
        Ok((200, len, 0)) if len == big << 20 => {
            bytes_checked.fetch_add(len, Ordering::Relaxed);
            report.metric("one large stream (MB/s)", len as f64 / 1e6 / secs);
            report.figure(
                "one large stream",
                format!(
                    "{big} MiB intact in {secs:.1} s ({:.0} MB/s)",
                    len as f64 / 1e6 / secs
                ),
            );
        }
        other => report.check(false, format!("large stream of {big} MiB: {other:?}")),
    }
    let start = Instant::now();
    let echo = echo(port, scale.echo_mib << 20, &rt);
    if let Ok(n) = echo {
        let secs = start.elapsed().as_secs_f64();
        report.metric("echo (MB/s each way)", n as f64 / 1e6 / secs);
        report.figure(
            "echo (POST /echo streamed back while uploading)",
            format!("{} MiB intact in {secs:.1} s", n >> 20),
        );
    }
    report.check(
        echo == Ok(scale.echo_mib << 20),
        format!("echo of {} MiB: {echo:?}", scale.echo_mib),
    );
    if let Ok(n) = echo {
        bytes_checked.fetch_add(2 * n, Ordering::Relaxed);
    }

    // fetch() calls made by the server (a handler fetch()ing itself).
    let self_ok = Arc::new(AtomicU64::new(0));
    let issued = Arc::new(AtomicU64::new(0));
    let calls = scale.self_fetches;
    let start = Instant::now();
    rt.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let (issued, self_ok, checked) =
                (issued.clone(), self_ok.clone(), bytes_checked.clone());
            tasks.push(tokio::spawn(async move {
                let Ok(mut sender) = connect(port).await else {
                    return;
                };
                while issued.fetch_add(1, Ordering::Relaxed) < calls {
                    match fetch_checked(&mut sender, "/self?mib=0.01", true).await {
                        Ok((200, len, 0)) => {
                            self_ok.fetch_add(1, Ordering::Relaxed);
                            checked.fetch_add(len, Ordering::Relaxed);
                        }
                        _ => return,
                    }
                }
            }));
        }
        let _ = tokio::time::timeout(Duration::from_secs(600), async {
            for t in tasks {
                let _ = t.await;
            }
        })
        .await;
    });
    let self_ok = self_ok.load(Ordering::Relaxed);
    let secs = start.elapsed().as_secs_f64();
    report.metric(
        "fetch() calls to the local server (calls/s)",
        self_ok as f64 / secs,
    );
    report.figure(
        "fetch() calls to the local server (from its handler)",
        format!("{self_ok}/{calls} in {secs:.1} s"),
    );
    report.check(self_ok == calls, format!("self fetches: {self_ok}/{calls}"));

    let after = settle(port, 20, |s| stat(s, "liveStreams") == 0);
    let after = {
        let _ = stats(port, true);
        std::thread::sleep(Duration::from_millis(500));
        let s = stats(port, true);
        if s.is_null() {
            after
        } else {
            s
        }
    };
    let (settled, hwm) = server.rss();
    report.figure(
        "server RSS peak / settled after load, GC forced (MiB)",
        format!("{hwm} / {settled}"),
    );
    report.metric("server peak RSS (MiB)", hwm as f64);
    report.metric("server settled RSS, GC forced (MiB)", settled as f64);
    report.figure("bytes checked", bytes_checked.load(Ordering::Relaxed));
    report.check(
        stat(&after, "liveStreams") == 0,
        format!("live streams back to 0 after load: {after}"),
    );
    report.check(
        stat(&after, "streamsStarted") - stat(&base, "streamsStarted")
            == stat(&after, "streamsClosed") - stat(&base, "streamsClosed")
                + stat(&after, "cancels")
                - stat(&base, "cancels"),
        "every stream started was closed or cancelled",
    );
}

fn echo(port: u16, total: u64, rt: &tokio::runtime::Runtime) -> Result<u64, String> {
    // Written and read at once on one connection (the echo streams while it uploads).
    let mut socket = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    socket
        .write_all(
            format!("POST /echo HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: {total}\r\n\r\n")
                .as_bytes(),
        )
        .map_err(|e| e.to_string())?;
    let mut writer = socket.try_clone().map_err(|e| e.to_string())?;
    let _ = rt;
    let up = std::thread::spawn(move || {
        let chunk: Vec<u8> = (0..251 * 256).map(|i| (i % 251) as u8).collect();
        let mut sent = 0u64;
        while sent < total {
            let n = (total - sent).min(chunk.len() as u64) as usize;
            if writer.write_all(&chunk[..n]).is_err() {
                break;
            }
            sent += n as u64;
        }
        sent
    });
    let _ = socket.set_read_timeout(Some(Duration::from_secs(30)));
    let mut raw = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    // The head, then a chunked body de-chunked on the fly (bounded by the total).
    let mut body_ok = 0u64;
    let mut pending = Vec::new();
    let mut in_body = false;
    let mut offset = 0u64;
    let deadline = Instant::now() + Duration::from_secs(300);
    while Instant::now() < deadline {
        let n = match socket.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if !in_body {
            raw.extend_from_slice(&buf[..n]);
            if let Some(i) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                in_body = true;
                pending = raw[i + 4..].to_vec();
            }
        } else {
            pending.extend_from_slice(&buf[..n]);
        }
        // Consume whole chunks from `pending`.
        while let Some(end) = pending.windows(2).position(|w| w == b"\r\n") {
            let Some(size) = std::str::from_utf8(&pending[..end])
                .ok()
                .and_then(|s| usize::from_str_radix(s, 16).ok())
            else {
                return Err("bad chunk".into());
            };
            if size == 0 {
                let _ = up.join();
                return Ok(body_ok);
            }
            if pending.len() < end + 2 + size + 2 {
                break;
            }
            let data = &pending[end + 2..end + 2 + size];
            if pattern_ok(offset, data) != 0 {
                return Err(format!("wrong bytes at {offset}"));
            }
            offset += size as u64;
            body_ok += size as u64;
            pending.drain(..end + 2 + size + 2);
        }
    }
    let sent = up.join().unwrap_or(0);
    Err(format!("echo ended after {body_ok} bytes of {sent} sent"))
}

// ---------------------------------------------------------------------------------------
// fuzz

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SEEDS: &[&[u8]] = &[
    b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n",
    b"GET /stats HTTP/1.1\r\nhost: x\r\naccept: */*\r\nconnection: close\r\n\r\n",
    b"POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 11\r\n\r\nhello world",
    b"POST /count HTTP/1.1\r\nhost: x\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
    b"GET /stream?mib=0.01 HTTP/1.1\r\nhost: x\r\n\r\nGET / HTTP/1.1\r\nhost: x\r\n\r\n",
    b"HEAD / HTTP/1.0\r\n\r\n",
    b"GET /throw HTTP/1.1\r\nhost: x\r\nx-a: 1\r\nx-a: 2\r\n\r\n",
    b"PUT /nope?x=%zz HTTP/1.1\r\nhost: x\r\ncontent-length: 0\r\nexpect: 100-continue\r\n\r\n",
];

const TOKENS: &[&[u8]] = &[
    b"\r\n",
    b"\n",
    b"\r",
    b":",
    b" ",
    b"\t",
    b"\0",
    b"\xff",
    b"chunked",
    b"content-length: ",
    b"transfer-encoding: ",
    b"999999999999999999999",
    b"-1",
    b"0\r\n\r\n",
    b"HTTP/1.1",
    b"\r\n\r\n",
    b"connection: close\r\n",
    b"upgrade: websocket\r\n",
    b"expect: 100-continue\r\n",
    b"%",
    b"?",
    b"#",
];

fn mutate(rng: &mut Rng) -> Vec<u8> {
    let mut b = SEEDS[rng.below(SEEDS.len())].to_vec();
    for _ in 0..=rng.below(6) {
        let at = rng.below(b.len() + 1);
        match rng.below(7) {
            0 => {
                if let Some(x) = b.get_mut(at) {
                    *x ^= 1 << rng.below(8);
                }
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                b.splice(at..at, t.iter().copied());
            }
            2 => {
                let end = (at + rng.below(16)).min(b.len());
                b.drain(at..end);
            }
            3 => {
                let n = rng.below(64);
                let junk: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                b.splice(at..at, junk);
            }
            4 => b.truncate(at),
            5 => {
                // Repeat a slice (duplicate headers, long lines).
                let end = (at + rng.below(40)).min(b.len());
                let piece = b[at..end].to_vec();
                for _ in 0..rng.below(50) {
                    b.splice(at..at, piece.iter().copied());
                }
            }
            _ => {
                if let Some(x) = b.get_mut(at) {
                    *x = rng.next() as u8;
                }
            }
        }
    }
    b
}

/// Request fuzzing: each case on a fresh connection, half-closed after the bytes; the
/// server must answer or close within the bound.
fn fuzz_requests(port: u16, cases: u64, seed: u64, report: &mut Report) {
    let hangs = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicU64::new(0));
    let next = Arc::new(AtomicU64::new(0));
    let hang_samples = Arc::new(Mutex::new(Vec::<Vec<u8>>::new()));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let (hangs, done, next, samples) = (
                hangs.clone(),
                done.clone(),
                next.clone(),
                hang_samples.clone(),
            );
            std::thread::spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cases {
                    return;
                }
                let mut rng = Rng(seed ^ (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
                let bytes = mutate(&mut rng);
                let limit = 64 << 20;
                let r = raw(port, &bytes, true, limit, Duration::from_secs(10));
                // Still streaming a long (valid) response at the limit is not a hang.
                if !r.closed && r.bytes.len() < limit {
                    hangs.fetch_add(1, Ordering::Relaxed);
                    let mut s = samples.lock().expect("lock");
                    if s.len() < 3 {
                        s.push(bytes);
                    }
                }
                done.fetch_add(1, Ordering::Relaxed);
            })
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    let hangs = hangs.load(Ordering::Relaxed);
    report.figure(
        "fuzz: request cases (seed)",
        format!("{} ({seed:#x})", done.load(Ordering::Relaxed)),
    );
    report.figure(
        "fuzz: request cases not answered or closed within 10 s",
        hangs,
    );
    for s in hang_samples.lock().expect("lock").iter() {
        eprintln!("  hang sample: {:?}", String::from_utf8_lossy(s));
    }
    report.check(hangs == 0, format!("fuzz: {hangs} request cases hung"));
    report.check(healthy(port), "server healthy after request fuzzing");
}

/// Response fuzzing: the server's handler fetch()es a raw upstream answering with mutated
/// responses; every fetch must settle (a status or an error) within the bound.
fn fuzz_responses(port: u16, cases: u64, seed: u64, report: &mut Report) {
    const RESPONSES: &[&[u8]] = &[
        b"HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        b"HTTP/1.1 301 Moved\r\nlocation: /y\r\ncontent-length: 0\r\n\r\n",
        b"HTTP/1.0 200 OK\r\n\r\nuntil close",
        b"HTTP/1.1 204 No Content\r\n\r\n",
    ];
    let mut rng = Rng(seed.rotate_left(17) | 1);
    let mut settled = 0u64;
    let batch = 50usize;
    let mut remaining = cases;
    while remaining > 0 {
        let n = remaining.min(batch as u64) as usize;
        remaining -= n as u64;
        let answers: Vec<Vec<u8>> = (0..n)
            .map(|_| {
                let mut b = RESPONSES[rng.below(RESPONSES.len())].to_vec();
                for _ in 0..=rng.below(4) {
                    let at = rng.below(b.len() + 1);
                    match rng.below(4) {
                        0 => {
                            if let Some(x) = b.get_mut(at) {
                                *x = rng.next() as u8;
                            }
                        }
                        1 => {
                            let t = TOKENS[rng.below(TOKENS.len())];
                            b.splice(at..at, t.iter().copied());
                        }
                        2 => b.truncate(at),
                        _ => {
                            let end = (at + rng.below(8)).min(b.len());
                            b.drain(at..end);
                        }
                    }
                }
                b
            })
            .collect();
        let (upstream, handle) = scripted_upstream(answers);
        for _ in 0..n {
            // A redirect goes back to the same upstream, which has one answer per
            // connection: the fetch then fails or times out, both settle.
            let got = fetch_via(port, upstream, 2000);
            if got.get("status").is_some() || got.get("error").is_some() {
                settled += 1;
            }
        }
        drop(handle);
    }
    report.figure(
        "fuzz: fetch() response cases settled",
        format!("{settled}/{cases}"),
    );
    report.check(
        settled == cases,
        format!("fuzz: {} fetch() cases did not settle", cases - settled),
    );
}

// ---------------------------------------------------------------------------------------

fn main() {
    let mut mode = Mode::Ci;
    let mut boa = String::from("target/release/boa-streams");
    if let Ok(dir) = std::env::var("CARGO_TARGET_DIR") {
        boa = format!("{dir}/release/boa-streams");
    }
    let mut seed = 0x5EED_2026u64;
    let mut only: Option<Vec<String>> = None;
    let mut compare_mode = false;
    let mut node = String::from("node");
    let mut deno = std::env::var("DENO").ok();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--ci" => mode = Mode::Ci,
            "--long" => mode = Mode::Long,
            "--boa" => boa = args.next().expect("--boa PATH"),
            "--compare" => compare_mode = true,
            "--node" => node = args.next().expect("--node PATH"),
            "--deno" => deno = args.next(),
            "--seed" => seed = args.next().and_then(|s| s.parse().ok()).expect("--seed N"),
            "--only" => {
                only = args
                    .next()
                    .map(|s| s.split(',').map(str::to_string).collect())
            }
            _ => {
                eprintln!(
                    "usage: net-campaign [--ci|--long] [--boa PATH] [--seed N] [--only PHASE,...]\n       net-campaign --compare [--ci|--long] [--boa PATH] [--node PATH] [--deno PATH]"
                );
                std::process::exit(2);
            }
        }
    }
    let run = |phase: &str| only.as_ref().is_none_or(|o| o.iter().any(|p| p == phase));
    let scale = mode.scale();
    if compare_mode {
        compare(mode, &scale, &boa, &node, deno.as_deref());
        return;
    }
    let started = Instant::now();
    let mut report = Report::default();
    let mut server = Server::start(&boa);
    let port = server.port;
    eprintln!("campaign server on port {port} (pid {})", server.child.id());

    let slowloris_secs = if mode == Mode::Long { 40 } else { 12 };
    let loris = run("hostile").then(|| std::thread::spawn(move || slowloris(port, slowloris_secs)));

    type Phase<'a> = (&'a str, &'a dyn Fn(&mut Server, &mut Report));
    let phases: [Phase; 8] = [
        ("hostile", &|s, r| hostile(s.port, r)),
        ("disconnect", &|s, r| disconnects(s.port, r)),
        ("faults", &|s, r| faults(s.port, r)),
        ("upstream", &|s, r| upstream_faults(s.port, r)),
        ("slow", &|s, r| slow_reader(s, scale.slow_secs, r)),
        ("load", &|s, r| load(s, &scale, r)),
        ("bomb", &|s, r| bombs(s, scale.bomb_buffered_mib, r)),
        ("fuzz", &|s, r| {
            fuzz_requests(s.port, scale.fuzz_cases, seed, r);
            fuzz_responses(s.port, scale.upstream_fuzz_cases, seed, r);
        }),
    ];
    for (name, phase) in phases {
        if !run(name) {
            continue;
        }
        eprintln!("== {name} ({:.0} s)", started.elapsed().as_secs_f64());
        phase(&mut server, &mut report);
        let alive = server.alive();
        report.check(alive, format!("the server process is alive after {name}"));
        if !alive {
            break;
        }
    }
    if let Some(loris) = loris {
        report.faults_injected += 1;
        let (served, cut) = loris.join().unwrap_or((false, None));
        report.figure(
            "slowloris (1 byte/s)",
            format!(
                "others served meanwhile: {served}; cut by the server after {}",
                cut.map_or("(not within the run)".to_string(), |d| format!(
                    "{:.0} s",
                    d.as_secs_f64()
                ))
            ),
        );
        report.check(served, "slowloris: the server served others meanwhile");
        if mode == Mode::Long {
            report.check(
                cut.is_some(),
                "slowloris: the header timeout cut the connection",
            );
        }
        if served {
            report.faults_survived += 1;
        }
    }
    let alive = server.alive();
    report.check(
        alive,
        "the server process is alive at the end (no panic, no abort)",
    );
    let (rss, hwm) = server.rss();

    println!(
        "## net-campaign ({}, seed {seed:#x}, {:.0} s)\n",
        if mode == Mode::Ci { "--ci" } else { "--long" },
        started.elapsed().as_secs_f64()
    );
    println!("| figure | value |\n|---|---|");
    for (k, v) in &report.figures {
        println!("| {k} | {v} |");
    }
    println!("| server RSS peak / at the end (MiB) | {hwm} / {rss} |");
    println!(
        "| faults injected / survived | {} / {} |",
        report.faults_injected, report.faults_survived
    );
    println!(
        "| checks / failed | {} / {} |",
        report.checks,
        report.failures.len()
    );
    drop(server);
    if !report.failures.is_empty() {
        println!("\nFailures:");
        for f in &report.failures {
            println!("- {f}");
        }
        std::process::exit(1);
    }
}

// ---------------------------------------------------------------------------------------
// --compare: the slow-reader and load phases against boa-streams, Node and Deno

/// Run the `slow` and `load` phases against each runtime's campaign server (the same routes
/// and byte pattern: benches/net/campaign-server{,-node.mjs,-deno.js}) one after the other,
/// and print the figures side by side with ratios. Exits 1 if boa-streams failed a check; a
/// failed check of Node or Deno is listed, not fatal (it is theirs).
fn compare(mode: Mode, scale: &Scale, boa: &str, node: &str, deno: Option<&str>) {
    let started = Instant::now();
    let mut runtimes: Vec<(&str, &str, Vec<&str>)> = vec![
        (
            "boa",
            "gc() (--expose-gc: a full collection)",
            vec![boa, "--expose-gc", "benches/net/campaign-server.js", "0"],
        ),
        (
            "node",
            "gc() (--expose-gc)",
            vec![
                node,
                "--expose-gc",
                "benches/net/campaign-server-node.mjs",
                "0",
            ],
        ),
    ];
    match deno {
        Some(deno) if std::path::Path::new(deno).exists() || deno == "deno" => runtimes.push((
            "deno",
            "gc() (--v8-flags=--expose-gc)",
            vec![
                deno,
                "run",
                "--allow-net",
                "--v8-flags=--expose-gc",
                "benches/net/campaign-server-deno.js",
                "0",
            ],
        )),
        _ => eprintln!("net-campaign --compare: no Deno (pass --deno PATH or DENO=PATH)"),
    }
    let mut reports = Vec::new();
    for (name, _, command) in &runtimes {
        eprintln!("== {name} ({:.0} s)", started.elapsed().as_secs_f64());
        let mut report = Report::default();
        let mut server = Server::spawn(command);
        slow_reader(&server, scale.slow_secs, &mut report);
        load(&server, scale, &mut report);
        let alive = server.alive();
        report.check(
            alive,
            format!("the {name} server process is alive at the end"),
        );
        let (rss, hwm) = server.rss();
        report.figure(
            "server RSS peak / at the end (MiB)",
            format!("{hwm} / {rss}"),
        );
        drop(server);
        reports.push(report);
    }
    println!(
        "## net-campaign --compare ({}, {:.0} s)\n",
        if mode == Mode::Ci { "--ci" } else { "--long" },
        started.elapsed().as_secs_f64()
    );
    let names: Vec<&str> = runtimes.iter().map(|r| r.0).collect();
    println!("| figure | {} |", names.join(" | "));
    println!("|---|{}", "---|".repeat(names.len()));
    let gcs: Vec<&str> = runtimes.iter().map(|r| r.1).collect();
    println!("| GC forced by | {} |", gcs.join(" | "));
    let keys: std::collections::BTreeSet<&String> =
        reports.iter().flat_map(|r| r.figures.keys()).collect();
    for key in keys {
        let cells: Vec<&str> = reports
            .iter()
            .map(|r| r.figures.get(key).map_or("-", String::as_str))
            .collect();
        println!("| {key} | {} |", cells.join(" | "));
    }
    let checks: Vec<String> = reports
        .iter()
        .map(|r| format!("{} / {}", r.checks, r.failures.len()))
        .collect();
    println!("| checks / failed | {} |", checks.join(" | "));
    println!(
        "\n| measure | {} | {} |",
        names.join(" | "),
        names[1..]
            .iter()
            .map(|n| format!("boa/{n}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(2 * names.len() - 1));
    let keys: std::collections::BTreeSet<&String> =
        reports.iter().flat_map(|r| r.metrics.keys()).collect();
    for key in keys {
        let values: Vec<Option<f64>> = reports
            .iter()
            .map(|r| r.metrics.get(key).copied())
            .collect();
        let cells: Vec<String> = values
            .iter()
            .map(|v| v.map_or("-".into(), |v| format!("{v:.1}")))
            .collect();
        let ratios: Vec<String> = values[1..]
            .iter()
            .map(|other| match (values[0], other) {
                (Some(b), Some(o)) if *o > 0.0 => format!("{:.2}", b / o),
                _ => "-".into(),
            })
            .collect();
        println!("| {key} | {} | {} |", cells.join(" | "), ratios.join(" | "));
    }
    println!(
        "\nRatios: boa's figure over the other's (for rates > 1 means boa-streams is faster; \
         for MiB rows < 1 means it holds less memory)."
    );
    let mut boa_failed = false;
    for (report, name) in reports.iter().zip(&names) {
        if !report.failures.is_empty() {
            println!("\nFailed checks ({name}):");
            for f in &report.failures {
                println!("- {f}");
            }
            boa_failed |= *name == "boa";
        }
    }
    if boa_failed {
        std::process::exit(1);
    }
}
