//! `reader serve`'s request handling on any bytes: the router on any
//! method, path and query, then the same bytes as a whole connection
//! through hyper (heads, headers, pipelined and half-sent requests). An
//! answer with a status the server gives, or a closed connection; never a
//! panic or a hang.
#![no_main]
#![deny(unsafe_op_in_unsafe_fn, clippy::undocumented_unsafe_blocks)]

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use dice_tables_serve::{self as serve, Config, Served, Shared};
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

struct World {
    runtime: tokio::runtime::Runtime,
    shared: Arc<Shared>,
}

/// The tables served.
const FUZZED_TABLES: [&str; 10] =
    ["yazy", "yazy-target", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel", "duel-cardgames", "maxi-yatzy"];

/// The tables of `$DICE_TABLES` (`make fuzz` passes ./tables), read once.
fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let dir = std::env::var_os("DICE_TABLES").map_or_else(|| PathBuf::from("../tables"), PathBuf::from);
        // The tables `make tables` writes (and yazy-target): not the
        // optional ones (two-player yazy, the yatzy and yahtzee target
        // tables: 1.3 GB), which `make browser` may have put there and
        // which do not fit the fuzzer's memory limit under the sanitizer.
        let (served, _) = Served::load_games(&dir, Some(FUZZED_TABLES.to_vec()), None);
        let config = Config {
            header_timeout: Duration::from_millis(200),
            idle_timeout: Duration::from_millis(200),
            ..Config::default()
        };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        World { runtime, shared: Shared::new(served, config) }
    })
}

fuzz_target!(
    // The tables are read and checked before the first input (Maxi
    // Yatzy's 90 MB take longer under the sanitizer than an input may).
    init: {
        world();
    },
    |data: &[u8]| {
        let world = world();
        // The router: the input's first line as METHOD TARGET.
        let text = String::from_utf8_lossy(data);
        let line = text.lines().next().unwrap_or("");
        let (method, target) = line.split_once(' ').unwrap_or((line, ""));
        let target = target.split(' ').next().unwrap_or("");
        let (path, query) = match target.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (target, None),
        };
        let reply = serve::route(&world.shared.served(), method, path, query);
        assert!(matches!(reply.status, 200 | 400 | 404 | 405 | 503), "{reply:?}");
        if reply.content_type == "application/json" {
            let body = reply.body.strip_suffix('\n').expect("a JSON body ends its line");
            assert!(!body.contains('\n'), "one line: {body:?}");
        }

        // The same bytes as a connection.
        world.runtime.block_on(async {
            let (mut client, server) = tokio::io::duplex(64 * 1024);
            let (_stop, stopped) = tokio::sync::watch::channel(false);
            let connection = tokio::spawn(serve::serve_connection(server, Arc::clone(&world.shared), stopped));
            let _ = client.write_all(data).await;
            let _ = client.shutdown().await;
            let mut answer = Vec::new();
            let _ = client.read_to_end(&mut answer).await;
            connection.await.expect("the connection task ends without a panic");
            assert!(
                answer.is_empty() || answer.starts_with(b"HTTP/1.1 ") || answer.starts_with(b"HTTP/1.0 "),
                "{:?}",
                String::from_utf8_lossy(&answer)
            );
        });
    }
);
