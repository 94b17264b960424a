//! `reader serve` under a flood of connections and a low descriptor limit.
//! A test binary of its own: test binaries run one after another, so no
//! other test competes for the two cores while it times its answers.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use dice_tables_tests::default_tables;
use dice_tables_tests::http::Server;

/// One request on a new connection, timed.
fn timed_get(server: &Server, target: &str) -> (u16, String, Duration) {
    let started = Instant::now();
    let r = server.connect().get(target).unwrap_or_else(|| panic!("{target}: no answer"));
    (r.status, r.text(), started.elapsed())
}

/// Under `prlimit --nofile=256`, 2,000 idle connections and 500 that send
/// their heads a byte at a time: the server never exits, serves what fits
/// under its cap and refuses the rest, closes the held ones at the header
/// timeout, answers at once from the timeout plus 1 s, and gives back its
/// memory.
#[test]
fn a_flood_of_idle_and_slow_connections_under_a_low_descriptor_limit() {
    let mut prlimit = Command::new("prlimit");
    prlimit.arg("--nofile=256");
    let tables = default_tables().to_str().unwrap();
    let mut server = Server::spawn(prlimit, &["--tables", tables, "--addr", "127.0.0.1:0"], true);
    let cap_line = server.log_line("serving at most", 5).expect("the server says its cap was lowered");
    assert!(cap_line.contains("at most 224 connections") && cap_line.contains("open-file limit is 256"), "{cap_line}");
    let warm = |server: &Server| {
        let mut c = server.connect();
        for _ in 0..50 {
            assert_eq!(c.get("/v1/lookup/yatzy?mask=all&upper=0&dice=33356&rerolls=1").unwrap().status, 200);
        }
    };
    warm(&server);
    let rss_before = server.rss_kib();

    let flood_began = Instant::now();
    let header_timeout = Duration::from_secs(10);
    let addr = server.addr.clone();
    let (idle, slow) = std::thread::scope(|s| {
        let idle = s.spawn(|| (0..2000).filter_map(|_| TcpStream::connect(&addr).ok()).collect::<Vec<_>>());
        let slow = s.spawn(|| {
            (0..500)
                .filter_map(|_| {
                    let mut c = TcpStream::connect(&addr).ok()?;
                    let _ = c.write_all(b"GET /v1/lookup/yazy?mask=all HTTP/1.1\r\nHost: x\r\n");
                    Some(c)
                })
                .collect::<Vec<_>>()
        });
        (idle.join().unwrap(), slow.join().unwrap())
    });
    assert_eq!((idle.len(), slow.len()), (2000, 500), "every connection was opened");
    // The slow ones go on sending a header byte at a time.
    let dripping = std::sync::atomic::AtomicBool::new(true);
    let (held, refused) = std::thread::scope(|s| {
        let mut slow = slow;
        let drip = s.spawn(|| {
            while dripping.load(std::sync::atomic::Ordering::Relaxed) {
                for c in slow.iter_mut() {
                    let _ = c.write_all(b"X");
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            slow
        });
        // From the header timeout plus 1 s after the flood began, new
        // requests are answered at once.
        std::thread::sleep(
            (flood_began + header_timeout + Duration::from_secs(1)).saturating_duration_since(Instant::now()),
        );
        assert_eq!(server.exited(), None, "the server is running");
        for target in ["/healthz", "/v1/lookup/yatzy?mask=all&upper=0&dice=33356&rerolls=1"] {
            let (status, body, took) = timed_get(&server, target);
            assert_eq!(status, 200, "{target}: {body}");
            assert!(took < Duration::from_millis(100), "{target} took {took:?}");
            eprintln!("flood: {target} answered in {took:?}, {:?} after the flood began", flood_began.elapsed());
        }
        dripping.store(false, std::sync::atomic::Ordering::Relaxed);
        let slow = drip.join().unwrap();
        // Every connection is closed by now: refused at once (a 503, or
        // closed), or held and closed at the header timeout.
        let (mut held, mut refused) = (0, 0);
        for mut c in idle.into_iter().chain(slow) {
            c.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
            let mut answer = Vec::new();
            match c.read_to_end(&mut answer) {
                Ok(_) | Err(_) if answer.starts_with(b"HTTP/1.1 503") => refused += 1,
                Ok(_) => held += 1,
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => refused += 1,
                Err(e) => panic!("a connection is still open after the timeouts: {e}"),
            }
        }
        (held, refused)
    });
    assert!(held > 0 && held <= 224, "{held} held");
    assert!(refused >= 2500 - 224, "{refused} refused");
    assert_eq!(server.exited(), None, "the server is running");
    std::thread::sleep(Duration::from_millis(500));
    let rss_after = server.rss_kib();
    assert!(rss_after < rss_before + 10 * 1024, "memory {rss_before} KiB before, {rss_after} KiB after");
    warm(&server);
    eprintln!("flood: {held} held, {refused} refused; memory {rss_before} -> {rss_after} KiB");
}
