//! `reader serve`: the command line of the library's server
//! (`dice_tables_serve`): its flags, its log, its exit statuses.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use dice_tables_serve::{Config, ServeError};

use crate::output::Failure;

/// `reader serve`'s arguments.
#[derive(Args, Debug)]
pub struct Serve {
    /// Directory holding the tables (default: `$DICE_TABLES`, else ./tables).
    /// Each table is read into memory at start and on SIGHUP.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Where to listen. Loopback by default; another address (0.0.0.0:8080)
    /// serves whoever can reach this machine. Port 0 picks a free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Connections served at once; one more gets a 503 and is closed.
    /// Lowered to fit the open-file limit (ulimit -n) less 32.
    #[arg(long, value_name = "N", default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,
    /// Seconds a request's head may take to arrive, from the connection's
    /// start or the request's first byte.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = seconds)]
    header_timeout: Duration,
    /// Seconds a kept-alive connection may wait for its next request.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    idle_timeout: Duration,
    /// The most bytes of a request's head (a larger one gets 431); at least 8192.
    #[arg(long, value_name = "BYTES", default_value_t = 16384, value_parser = clap::value_parser!(u32).range(8192..=1 << 20))]
    max_header_bytes: u32,
    /// One line per request on standard error: method, path, status, microseconds.
    #[arg(long)]
    log: bool,
    /// Let pages from ORIGIN call the API from a browser
    /// (Access-Control-Allow-Origin on /v1/ answers): `*`, or a scheme and
    /// host with an optional port, such as https://example.org:8443.
    /// Default: no other origin.
    #[arg(long, value_name = "ORIGIN", value_parser = origin)]
    cors: Option<String>,
    /// Comma list of the tables to serve, by game id (yazy, yatzy,
    /// yahtzee-target, ...; see reader verify's listing); the others are
    /// neither read nor served. Default: every table in the directory.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = table_id)]
    games: Option<Vec<&'static str>>,
}

/// A table's game id, or another name of it (`10000` for `tenk`).
fn table_id(s: &str) -> Result<&'static str, String> {
    match dice_tables_reader::game_named(s.trim()) {
        Some(game) => Ok(game.id),
        None => {
            let ids: Vec<&str> = dice_tables_reader::GAMES.iter().map(|g| g.id).collect();
            Err(format!("no table {}: the tables are {}", dice_tables_reader::quoted(s), ids.join(", ")))
        }
    }
}

/// `*` or `http(s)://host[:port]`, as an Origin header writes it.
fn origin(s: &str) -> Result<String, String> {
    let accepted = "give * or a scheme and host with an optional port, such as https://example.org:8443";
    if s == "*" {
        return Ok(s.to_string());
    }
    let host = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://"));
    match host {
        Some(h) if !h.is_empty() && h.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b)) => {
            Ok(s.to_string())
        }
        _ => Err(format!("origin {} is not one: {accepted}", dice_tables_reader::quoted(s))),
    }
}

/// A number of seconds from 0.001 to 86400.
fn seconds(s: &str) -> Result<Duration, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.001..=86_400.0).contains(&v) => Ok(Duration::from_secs_f64(v)),
        _ => Err("give a number of seconds from 0.001 to 86400, such as 10 or 0.5".to_string()),
    }
}

/// Checks the directory, then serves until SIGINT or SIGTERM: exit 1 for a
/// directory that is not there, 2 for an address that cannot be listened on.
pub fn run(args: &Serve) -> Result<(), Failure> {
    let dir = crate::directory::tables_dir(args.tables.clone())?;
    // Start, reload and warning lines always; the access lines with --log.
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).with_target(false).init();
    let config = Config {
        addr: args.addr,
        max_connections: args.max_connections as usize,
        header_timeout: args.header_timeout,
        idle_timeout: args.idle_timeout,
        max_header_bytes: args.max_header_bytes as usize,
        log: args.log,
        cors: args.cors.clone(),
        games: args.games.clone(),
    };
    dice_tables_serve::run(dir, config, |addr| {
        if !addr.ip().is_loopback() {
            dice_tables_terminal::error_line(
                "reader",
                &format!("serving {addr}: anyone who can reach this machine may ask"),
            );
        }
        // The line a script waits for (flushed: stdout may be a pipe).
        dice_tables_terminal::Output::default().print(&format!("listening on http://{addr}\n"));
    })
    .map_err(|e| match e {
        ServeError::Bind(m) => Failure::Usage(m),
        ServeError::Runtime(m) => Failure::Table(m),
    })
}
