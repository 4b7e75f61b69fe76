//! `loadgen`: an HTTP/1.1 load generator of our own (hyper 1 client on tokio), loopback only.
//!
//! ```text
//! loadgen get  URL [--no-check]                 one streamed GET into a sink: bytes, MB/s
//! loadgen many URL -c N [--no-check]            N concurrent clients (one connection each), one GET each
//! loadgen rps  URL -c C -d SECS [-n MAX]        requests/s over C keep-alive connections
//! loadgen post URL --bytes N [--no-check]       POST N pattern bytes streamed, read the echo back
//! loadgen serve PORT                            a neutral upstream: GET /stream?mib=N, GET /
//! ```
//!
//! `serve` is the upstream for the fetch and proxy benchmarks (the same server for every
//! client measured): it streams `N` MiB of the pattern in 62.75 KiB chunks as fast as the
//! socket takes them, answers `/` with a short text, and runs until killed.
//!
//! Bodies are checked on the fly against the pattern byte i = i % 251 (the contract of
//! `examples/serve.js`); `--no-check` skips it. Every mode prints one JSON line on stdout
//! (`mode`, `bytes`, `secs`, `mb_s`, `requests`, `req_s`, `errors`, `bad_bytes`, ...) and exits
//! non-zero if a request failed or a byte was wrong. Every mode is bounded: `--timeout SECS`
//! (default 600) ends the run.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::body::{Body, Frame, SizeHint};
use hyper_util::rt::TokioIo;

/// The pattern of `examples/serve.js`, long enough to compare any chunk up to 64 KiB at any
/// phase with one slice.
struct Pattern(Vec<u8>);

const PIECE: usize = 65536;

impl Pattern {
    fn new() -> Self {
        Self((0..PIECE + 251).map(|i| (i % 251) as u8).collect())
    }

    /// The number of bytes of `chunk` (starting at stream offset `offset`) that differ.
    fn mismatches(&self, mut offset: u64, chunk: &[u8]) -> u64 {
        let mut bad = 0u64;
        for piece in chunk.chunks(PIECE) {
            let start = (offset % 251) as usize;
            let expected = &self.0[start..start + piece.len()];
            if piece != expected {
                bad += piece.iter().zip(expected).filter(|(a, b)| a != b).count() as u64;
            }
            offset += piece.len() as u64;
        }
        bad
    }
}

/// A request body of `remaining` pattern bytes, made in 64 KiB frames as hyper asks.
struct PatternBody {
    pattern: Arc<Pattern>,
    sent: u64,
    total: u64,
}

impl Body for PatternBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if this.sent >= this.total {
            return Poll::Ready(None);
        }
        let n = (this.total - this.sent).min(PIECE as u64) as usize;
        let start = (this.sent % 251) as usize;
        let chunk = Bytes::copy_from_slice(&this.pattern.0[start..start + n]);
        this.sent += n as u64;
        Poll::Ready(Some(Ok(Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.sent >= self.total
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.total - self.sent)
    }
}

#[derive(Default)]
struct Totals {
    bytes: AtomicU64,
    requests: AtomicU64,
    errors: AtomicU64,
    bad_bytes: AtomicU64,
}

struct Opts {
    mode: String,
    url: http::Uri,
    clients: usize,
    secs: f64,
    max: u64,
    bytes: u64,
    check: bool,
    timeout: f64,
}

fn usage(message: &str) -> ! {
    eprintln!("loadgen: {message}\nusage: loadgen get|many|rps|post URL [-c N] [-d SECS] [-n MAX] [--bytes N] [--no-check] [--timeout SECS]");
    std::process::exit(2)
}

fn parse() -> Opts {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| usage("missing mode"));
    let url = args.next().unwrap_or_else(|| usage("missing URL"));
    let url: http::Uri = url
        .parse()
        .unwrap_or_else(|e| usage(&format!("bad URL: {e}")));
    let mut o = Opts {
        mode,
        url,
        clients: 1,
        secs: 10.0,
        max: u64::MAX,
        bytes: 1 << 20,
        check: true,
        timeout: 600.0,
    };
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("missing value after {a}")))
        };
        match a.as_str() {
            "-c" => o.clients = value().parse().unwrap_or_else(|_| usage("bad -c")),
            "-d" => o.secs = value().parse().unwrap_or_else(|_| usage("bad -d")),
            "-n" => o.max = value().parse().unwrap_or_else(|_| usage("bad -n")),
            "--bytes" => o.bytes = value().parse().unwrap_or_else(|_| usage("bad --bytes")),
            "--timeout" => o.timeout = value().parse().unwrap_or_else(|_| usage("bad --timeout")),
            "--no-check" => o.check = false,
            _ => usage(&format!("unknown option {a}")),
        }
    }
    if o.url.scheme_str() != Some("http") {
        usage("only http: URLs");
    }
    o
}

type Sender<B> = hyper::client::conn::http1::SendRequest<B>;

/// One HTTP/1.1 connection to the URL's authority.
async fn connect<B>(url: &http::Uri) -> Result<Sender<B>, String>
where
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let host = url.host().ok_or("URL without host")?;
    let port = url.port_u16().unwrap_or(80);
    let stream = tokio::net::TcpStream::connect((host, port))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = stream.set_nodelay(true);
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(sender)
}

fn request<B>(url: &http::Uri, method: http::Method, body: B) -> http::Request<B> {
    let authority = url
        .authority()
        .map_or("localhost", |a| a.as_str())
        .to_string();
    let path = url.path_and_query().map_or("/", |p| p.as_str()).to_string();
    http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::HOST, authority)
        .body(body)
        .expect("a valid request")
}

/// Read a response body to its end into the totals, checking the pattern if asked.
async fn drain(
    response: http::Response<hyper::body::Incoming>,
    totals: &Totals,
    pattern: Option<&Pattern>,
) -> Result<u64, String> {
    if !response.status().is_success() {
        return Err(format!("status {}", response.status()));
    }
    let mut body = response.into_body();
    let mut offset = 0u64;
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| format!("body: {e}"))?;
        if let Ok(data) = frame.into_data() {
            if let Some(p) = pattern {
                let bad = p.mismatches(offset, &data);
                if bad > 0 {
                    totals.bad_bytes.fetch_add(bad, Ordering::Relaxed);
                }
            }
            offset += data.len() as u64;
            totals.bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
        }
    }
    Ok(offset)
}

async fn get_one(
    url: &http::Uri,
    totals: &Totals,
    pattern: Option<&Pattern>,
) -> Result<u64, String> {
    let mut sender = connect::<Empty<Bytes>>(url).await?;
    let response = sender
        .send_request(request(url, http::Method::GET, Empty::new()))
        .await
        .map_err(|e| format!("request: {e}"))?;
    let n = drain(response, totals, pattern).await?;
    totals.requests.fetch_add(1, Ordering::Relaxed);
    Ok(n)
}

async fn run(o: Opts) -> i32 {
    let totals = Arc::new(Totals::default());
    let pattern = Arc::new(Pattern::new());
    let start = Instant::now();
    let mut extra = String::new();
    match o.mode.as_str() {
        "get" | "many" => {
            let n = if o.mode == "get" { 1 } else { o.clients.max(1) };
            let mut tasks = Vec::with_capacity(n);
            for _ in 0..n {
                let (url, totals, pattern) = (o.url.clone(), totals.clone(), pattern.clone());
                let check = o.check;
                tasks.push(tokio::spawn(async move {
                    let p = check.then_some(&*pattern);
                    if let Err(e) = get_one(&url, &totals, p).await {
                        eprintln!("loadgen: {e}");
                        totals.errors.fetch_add(1, Ordering::Relaxed);
                    }
                }));
            }
            for t in tasks {
                let _ = t.await;
            }
        }
        "rps" => {
            let deadline = start + Duration::from_secs_f64(o.secs);
            let issued = Arc::new(AtomicU64::new(0));
            let mut tasks = Vec::new();
            for _ in 0..o.clients.max(1) {
                let (url, totals, issued) = (o.url.clone(), totals.clone(), issued.clone());
                let max = o.max;
                tasks.push(tokio::spawn(async move {
                    let mut sender = match connect::<Empty<Bytes>>(&url).await {
                        Ok(s) => s,
                        Err(e) => {
                            eprintln!("loadgen: {e}");
                            totals.errors.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    };
                    while Instant::now() < deadline && issued.fetch_add(1, Ordering::Relaxed) < max
                    {
                        if sender.ready().await.is_err() {
                            totals.errors.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                        let result = match sender
                            .send_request(request(&url, http::Method::GET, Empty::new()))
                            .await
                        {
                            Ok(r) => drain(r, &totals, None).await,
                            Err(e) => Err(format!("request: {e}")),
                        };
                        match result {
                            Ok(_) => {
                                totals.requests.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(e) => {
                                eprintln!("loadgen: {e}");
                                totals.errors.fetch_add(1, Ordering::Relaxed);
                                return;
                            }
                        }
                    }
                }));
            }
            for t in tasks {
                let _ = t.await;
            }
        }
        "post" => {
            let body = PatternBody {
                pattern: pattern.clone(),
                sent: 0,
                total: o.bytes,
            };
            let result = async {
                let mut sender = connect::<PatternBody>(&o.url).await?;
                let response = sender
                    .send_request(request(&o.url, http::Method::POST, body))
                    .await
                    .map_err(|e| format!("request: {e}"))?;
                let n = drain(response, &totals, o.check.then_some(&*pattern)).await?;
                totals.requests.fetch_add(1, Ordering::Relaxed);
                Ok::<_, String>(n)
            }
            .await;
            match result {
                Ok(n) if n == o.bytes => {}
                Ok(n) => {
                    eprintln!("loadgen: echoed {n} bytes of {}", o.bytes);
                    totals.errors.fetch_add(1, Ordering::Relaxed);
                }
                Err(e) => {
                    eprintln!("loadgen: {e}");
                    totals.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            extra = format!(",\"sent\":{}", o.bytes);
        }
        m => usage(&format!("unknown mode {m}")),
    }
    let secs = start.elapsed().as_secs_f64();
    let bytes = totals.bytes.load(Ordering::Relaxed);
    let requests = totals.requests.load(Ordering::Relaxed);
    let errors = totals.errors.load(Ordering::Relaxed);
    let bad = totals.bad_bytes.load(Ordering::Relaxed);
    println!(
        "{{\"mode\":\"{}\",\"clients\":{},\"bytes\":{bytes},\"secs\":{secs:.3},\"mb_s\":{:.1},\"requests\":{requests},\"req_s\":{:.0},\"errors\":{errors},\"bad_bytes\":{bad},\"checked\":{}{extra}}}",
        o.mode,
        o.clients,
        bytes as f64 / 1e6 / secs,
        requests as f64 / secs,
        o.check && o.mode != "rps",
    );
    i32::from(errors > 0 || bad > 0)
}

/// A response body of `total` pattern bytes from one shared chunk (its length is a multiple
/// of 251, so every chunk starts at phase 0).
struct StaticPattern {
    chunk: Bytes,
    left: u64,
}

impl Body for StaticPattern {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = self.get_mut();
        if this.left == 0 {
            return Poll::Ready(None);
        }
        let n = this.left.min(this.chunk.len() as u64) as usize;
        this.left -= n as u64;
        Poll::Ready(Some(Ok(Frame::data(this.chunk.slice(..n)))))
    }

    fn is_end_stream(&self) -> bool {
        self.left == 0
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.left)
    }
}

async fn serve(port: u16) {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap_or_else(|e| usage(&format!("cannot listen: {e}")));
    let addr = listener.local_addr().expect("a local address");
    println!("listening on http://{addr}");
    let chunk = Bytes::from((0..251 * 256).map(|i| (i % 251) as u8).collect::<Vec<u8>>());
    loop {
        let Ok((socket, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let _ = socket.set_nodelay(true);
        let chunk = chunk.clone();
        tokio::spawn(async move {
            let service =
                hyper::service::service_fn(move |req: http::Request<hyper::body::Incoming>| {
                    let chunk = chunk.clone();
                    async move {
                        let left = if req.uri().path() == "/stream" {
                            let mib: f64 = req
                                .uri()
                                .query()
                                .and_then(|q| q.strip_prefix("mib="))
                                .and_then(|v| v.parse().ok())
                                .unwrap_or(1.0);
                            (mib * 1048576.0) as u64
                        } else {
                            0
                        };
                        let body = if left == 0 {
                            StaticPattern {
                                chunk: Bytes::from_static(b"hello from loadgen\n"),
                                left: 19,
                            }
                        } else {
                            StaticPattern { chunk, left }
                        };
                        Ok::<_, Infallible>(http::Response::new(body))
                    }
                });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(socket), service)
                .await;
        });
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("serve") {
        let port = std::env::args()
            .nth(2)
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| usage("serve needs a PORT"));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(serve(port));
        return;
    }
    let o = parse();
    let timeout = Duration::from_secs_f64(o.timeout);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let code = runtime.block_on(async {
        match tokio::time::timeout(timeout, run(o)).await {
            Ok(code) => code,
            Err(_) => {
                eprintln!("loadgen: timed out");
                1
            }
        }
    });
    std::process::exit(code);
}
