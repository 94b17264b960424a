//! A bounded load test of `reader serve` on loopback (`make bench`): starts
//! the server, sends REQUESTS lookups (the golden files' lookups of every
//! game, round and round) over CONNECTIONS kept-alive connections, and
//! reports lookups per second, latency percentiles, errors, and the server's
//! resident memory along the way (it must stay flat).
//!
//! Usage: loadtest TABLES_DIR [REQUESTS] [CONNECTIONS]
//!
//! Exit status 1 if any request failed (the figures are for the closing
//! note and the README; nothing here is a timed test).

use std::path::Path;
use std::time::{Duration, Instant};

use dice_tables_tests::http::{query_string, Server};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(tables) = args.first() else {
        eprintln!("usage: loadtest TABLES_DIR [REQUESTS] [CONNECTIONS]");
        std::process::exit(2);
    };
    let requests: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let connections: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(4);

    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden");
    let mut targets = Vec::new();
    for game in ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel"] {
        let text = std::fs::read_to_string(golden.join(format!("{game}.json"))).expect("golden file");
        let file: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        for lookup in file["lookups"].as_array().expect("lookups") {
            targets.push(format!("/v1/lookup/{game}?{}", query_string(lookup["query"].as_object().expect("query"))));
        }
    }

    let server = Server::start(Path::new(tables));
    // Warm up: every lookup once (tables' chunks decoded, memory settled).
    let mut warm = server.connect();
    for t in &targets {
        assert_eq!(warm.get(t).map(|r| r.status), Some(200), "{t}");
    }
    let rss_start = server.rss_kib();
    let per_connection = requests / connections;
    let start = Instant::now();
    let mut rss_samples = Vec::new();
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..connections)
            .map(|c| {
                let (server, targets) = (&server, &targets);
                s.spawn(move || {
                    let mut client = server.connect();
                    let mut latencies = Vec::with_capacity(per_connection);
                    let mut errors = 0;
                    for i in 0..per_connection {
                        let target = &targets[(i * connections + c) % targets.len()];
                        let t0 = Instant::now();
                        match client.get(target) {
                            Some(r) if r.status == 200 => {}
                            _ => {
                                errors += 1;
                                client = server.connect();
                            }
                        }
                        latencies.push(t0.elapsed());
                    }
                    (latencies, errors)
                })
            })
            .collect();
        while !handles.iter().all(|h| h.is_finished()) {
            std::thread::sleep(Duration::from_millis(500));
            rss_samples.push(server.rss_kib());
        }
        handles.into_iter().map(|h| h.join().expect("client thread")).collect()
    });
    let elapsed = start.elapsed();
    let rss_end = server.rss_kib();

    let mut all: Vec<Duration> = results.iter().flat_map(|(l, _)| l.iter().copied()).collect();
    let errors: usize = results.iter().map(|(_, e)| e).sum();
    all.sort_unstable();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let rss_max = rss_samples.iter().copied().max().unwrap_or(rss_end);
    println!(
        "loadtest: {} lookups over {connections} connections in {:.2} s: {:.0} lookups/s; latency p50 {:.0} us, p99 {:.0} us, p99.9 {:.0} us, max {:.0} us; {errors} errors",
        all.len(),
        elapsed.as_secs_f64(),
        all.len() as f64 / elapsed.as_secs_f64(),
        us(pct(0.50)),
        us(pct(0.99)),
        us(pct(0.999)),
        us(all[all.len() - 1]),
    );
    println!(
        "loadtest: server memory (VmRSS) after warm-up {rss_start} KiB, highest during the run {rss_max} KiB, at the end {rss_end} KiB ({} distinct lookups)",
        targets.len()
    );
    if errors > 0 {
        std::process::exit(1);
    }
}
