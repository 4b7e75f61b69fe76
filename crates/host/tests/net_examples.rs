//! The examples contract of issue 23 (external checks drive it): `boa-streams
//! examples/serve.js PORT` and `boa-streams examples/fetch.js URL`, and `--serve-threads`.
//! Loopback only; every wait is bounded (socket timeouts, a deadline on each child).
#![cfg(feature = "net")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A server child, killed when dropped.
struct Server {
    child: Child,
    port: u16,
    lines: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Start `boa-streams ARGS...` and read `lines` "listening on" lines from its stdout.
fn start(args: &[&str], lines: usize) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args(args)
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("run boa-streams");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .take(lines)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut got = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while got.len() < lines {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => got.push(line),
            Err(_) => {
                let _ = child.kill();
                panic!("the server printed {got:?} and no more");
            }
        }
    }
    let first = got.first().expect("a line").clone();
    let port = first
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
    Server {
        child,
        port,
        lines: got,
    }
}

/// One HTTP/1.1 exchange on a fresh connection (`Connection: close`): status line and body
/// (de-chunked).
fn exchange(port: u16, request: &[u8]) -> (String, Vec<u8>) {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    socket
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("timeout");
    socket.write_all(request).expect("write");
    let mut raw = Vec::new();
    socket.read_to_end(&mut raw).expect("read");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let line_end = rest
                .windows(2)
                .position(|w| w == b"\r\n")
                .expect("chunk size");
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..line_end]).expect("size"), 16)
                    .expect("hex size");
            rest = &rest[line_end + 2..];
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[..size]);
            rest = &rest[size + 2..];
        }
        body = out;
    }
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, body)
}

fn pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

#[test]
fn serve_example_meets_the_contract() {
    let server = start(&["examples/serve.js", "0"], 1);
    let port = server.port;

    let (status, body) = exchange(
        port,
        b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n",
    );
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(!body.is_empty() && body.len() < 200, "{body:?}");

    let (status, body) = exchange(
        port,
        b"GET /stream?mib=3 HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n",
    );
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(body.len(), 3 << 20);
    assert!(body == pattern(3 << 20), "a byte of /stream is not i % 251");

    let sent = pattern(1_000_003);
    let mut request = format!(
        "POST /echo HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        sent.len()
    )
    .into_bytes();
    request.extend_from_slice(&sent);
    let (status, body) = exchange(port, &request);
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(body == sent, "the echo differs ({} bytes back)", body.len());

    // examples/fetch.js streams a response to stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .args([
            "examples/fetch.js",
            &format!("http://127.0.0.1:{port}/stream?mib=2"),
        ])
        .current_dir(repo())
        .output()
        .expect("run fetch.js");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout == pattern(2 << 20),
        "fetch.js wrote {} bytes",
        out.stdout.len()
    );
}

#[test]
fn serve_threads_share_one_port() {
    let dir = std::env::temp_dir().join(format!("boa-net-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script = dir.join("threads.js");
    // Each copy answers with its own id after keeping its thread busy for 300 ms, so two
    // requests at once are taken by two copies.
    std::fs::write(
        &script,
        r#"
        const id = String(Math.random()).slice(2);
        BoaStreams.serve({ port: 0, reusePort: true, onListen({ port }) {
            console.log(`listening on http://127.0.0.1:${port}`);
        } }, () => {
            const t = Date.now();
            while (Date.now() - t < 300) {}
            return new Response(id);
        });
        "#,
    )
    .expect("write script");
    let server = start(&["--serve-threads", "2", script.to_str().expect("utf8")], 2);
    assert_eq!(
        server.lines[0], server.lines[1],
        "the copies listen on different ports"
    );
    let port = server.port;
    let clients: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(move || {
                exchange(
                    port,
                    b"GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n",
                )
            })
        })
        .collect();
    let mut ids: Vec<Vec<u8>> = clients
        .into_iter()
        .map(|c| {
            let (status, body) = c.join().expect("client");
            assert_eq!(status, "HTTP/1.1 200 OK");
            body
        })
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 2, "one copy answered both requests");
}
