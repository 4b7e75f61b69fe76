//! Server frameworks whose `serve()` picks a runtime adapter by export conditions (h3 2.x
//! through srvx): under this host's conditions the Workers (`workerd`) adapter is chosen,
//! which registers a `fetch` event listener and does not listen; `BoaStreams.serve(options,
//! app.fetch)` serves the app. The fixture package `fake-srvx`
//! (`tests/fixtures/servers/node_modules`) has srvx's shape. Loopback only; the child has a
//! deadline.
#![cfg(feature = "net")]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn boa_streams_serve_serves_an_app_whose_framework_adapter_only_registers_a_fetch_listener() {
    let app = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/servers/app");
    let mut child = Command::new(env!("CARGO_BIN_EXE_boa-streams"))
        .arg("main.mjs")
        .current_dir(&app)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run boa-streams");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(status.is_some(), "timed out: {stdout}{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    // The framework's serve() got the Workers adapter (the workerd condition), which did
    // not listen; BoaStreams.serve served the app's fetch.
    assert_eq!(stdout, "framework serve: workerd\n200 hello /x\ndone\n");
}
