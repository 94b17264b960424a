//! `reader serve`: the lookups over HTTP/1.1, and the web page on top of
//! them, for a server an operator leaves running.
//!
//! - Every table is read into memory and checked whole before it is served
//!   ([`Served`]): changing a file in place changes no answer and crashes
//!   nothing. SIGHUP reads them again and swaps them in at once; a table
//!   whose file now fails keeps being served from the copy read before.
//! - Each connection has deadlines: the request head must arrive within the
//!   header timeout of the connection's start or of its first byte, and a
//!   kept-alive connection may idle for the idle timeout between requests.
//!   Heads are capped in bytes. A client that half-closes after its request
//!   still gets the answer.
//! - At most `max_connections` connections are served at once (lowered to
//!   fit the open-file limit); one past that gets a 503 and is closed. Out
//!   of file descriptors, the listener sheds a waiting connection with a
//!   spare descriptor kept for that, backs off and goes on: no accept error
//!   stops the server.
//!
//! Lookups take microseconds, so they run on the runtime's worker threads.
#![deny(missing_docs)]

mod metrics;
mod route;
mod state;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::Full;
use hyper::header::{
    HeaderValue, ACCEPT_ENCODING, ACCESS_CONTROL_ALLOW_ORIGIN, ALLOW, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE,
    ETAG, IF_NONE_MATCH, RETRY_AFTER, VARY,
};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::watch;

pub use route::{route, Reply};
pub use state::{Change, Loaded, Served, Status};

/// How a server runs: see `reader serve --help`.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Connections served at once; more get a 503.
    pub max_connections: usize,
    /// How long a request's head may take, from the connection's start or
    /// from the first byte of a request on a kept-alive connection.
    pub header_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request.
    pub idle_timeout: Duration,
    /// The most bytes a request head may have (431 past it).
    pub max_header_bytes: usize,
    /// One line per request on standard error.
    pub log: bool,
    /// The origin whose pages may call the API from a browser
    /// (`Access-Control-Allow-Origin` on `/v1/` answers: `*` or
    /// `https://host[:port]`); `None`, the default, allows none.
    pub cors: Option<String>,
    /// The tables served, by game id; `None`, the default, serves every one.
    pub games: Option<Vec<&'static str>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_connections: 512,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_header_bytes: 16 * 1024,
            log: false,
            cors: None,
            games: None,
        }
    }
}

/// Why a server could not start (once started, nothing stops it but a signal).
#[derive(Debug)]
pub enum ServeError {
    /// The address cannot be listened on.
    Bind(String),
    /// The runtime cannot start.
    Runtime(String),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Bind(m) | ServeError::Runtime(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for ServeError {}

/// What every connection shares.
#[derive(Debug)]
pub struct Shared {
    served: RwLock<Arc<Served>>,
    config: Config,
    metrics: metrics::Metrics,
    /// When the server started: the connections' clocks count from it.
    epoch: Instant,
}

impl Shared {
    /// A server's shared state over what is served.
    pub fn new(served: Served, config: Config) -> Arc<Shared> {
        let metrics = metrics::Metrics::default();
        Arc::new(Shared { served: RwLock::new(Arc::new(served)), config, metrics, epoch: Instant::now() })
    }

    /// What is served now.
    pub fn served(&self) -> Arc<Served> {
        Arc::clone(&self.served.read().unwrap_or_else(|p| p.into_inner()))
    }

    /// Reads the tables again and swaps them in (see [`Served::load`]).
    pub fn reload(&self) -> Vec<(String, Change)> {
        let old = self.served();
        let (new, changes) = Served::load(old.dir(), Some(&old));
        *self.served.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(new);
        // The old set is freed here unless a request still holds it (then
        // when the last one ends, and given back at the next reload).
        drop(old);
        release_freed_memory();
        self.metrics.reloaded();
        changes
    }
}

/// Gives the memory freed so far back to the system: glibc keeps what is
/// freed in its arenas, so without this each reload's new set grew the
/// process by the old one's decoded chunks.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release_freed_memory() {
    // SAFETY: malloc_trim only returns the allocator's own free pages to
    // the system; it touches no memory in use and takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release_freed_memory() {}

/// Fixes glibc's thresholds before any table is read, so that a reload
/// gives back all of the set it replaces. Left to itself glibc raises them
/// as big blocks are freed (the trim threshold up to 64 MB), and the top of
/// a thread's arena is trimmed only past it: a reload then kept up to 46 MB
/// of the old set's decoded chunks (Maxi Yatzy's), or not, as the threads
/// that loaded the two sets fell, so the server's size swung between
/// reloads. Blocks from 4 MB are their own mappings, given back when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fix_allocator_thresholds() {
    const FOUR_MB: libc::c_int = 4 << 20;
    // SAFETY: mallopt only sets the allocator's parameters, under the
    // allocator's own lock (so any thread may call it at any time); it
    // takes no pointer and touches no memory of ours.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, FOUR_MB);
        libc::mallopt(libc::M_TRIM_THRESHOLD, FOUR_MB);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fix_allocator_thresholds() {}

/// Reads the tables of `dir`, binds, calls `listening` with the address,
/// and serves until SIGINT or SIGTERM (then finishes the requests under way
/// for up to 5 seconds). SIGHUP reloads the tables. With glibc it first
/// fixes the process's allocator thresholds at 4 MB (see
/// `fix_allocator_thresholds`), so that a reload gives the old set back.
pub fn run(dir: PathBuf, config: Config, listening: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    fix_allocator_thresholds();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| ServeError::Runtime(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async move {
        // Every signal's handler is installed before the port is bound: a
        // SIGHUP sent as soon as the server answers (a deploy tool reloading
        // right after a start) must find it, not the default action, which
        // ends the process.
        let signals = Signals::install();
        let listener = tokio::net::TcpListener::bind(config.addr).await.map_err(|e| {
            ServeError::Bind(format!(
                "cannot listen on {}: {e} (give another --addr, such as 127.0.0.1:0)",
                config.addr
            ))
        })?;
        let addr = listener.local_addr().map_err(|e| ServeError::Bind(format!("cannot listen: {e}")))?;
        let games = config.games.clone();
        let (served, changes) = tokio::task::spawn_blocking(move || Served::load_games(&dir, games, None))
            .await
            .map_err(|e| ServeError::Runtime(format!("cannot read the tables: {e}")))?;
        let cap = connection_cap(config.max_connections);
        let shared = Shared::new(served, Config { max_connections: cap, ..config });
        listening(addr);
        log_start(&shared, &changes, addr);
        let (stop, stopped) = watch::channel(false);
        let Signals { hangup, shutdown } = signals;
        tokio::spawn(reload_on_hangup(hangup, Arc::clone(&shared)));
        let open = Arc::new(AtomicUsize::new(0));
        tokio::select! {
            () = accept_loop(listener, Arc::clone(&shared), Arc::clone(&open), stopped) => {}
            () = shutdown => {}
        }
        let _ = stop.send(true);
        let deadline = Instant::now() + Duration::from_secs(5);
        while open.load(Ordering::Acquire) > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tracing::info!("stopped");
        Ok(())
    })
}

/// `--max-connections`, lowered to leave room in the open-file limit for
/// the listener, the runtime and reading tables.
fn connection_cap(asked: usize) -> usize {
    const RESERVED: u64 = 32;
    let cap = match open_file_limit() {
        Some(limit) => asked.min(usize::try_from(limit.saturating_sub(RESERVED)).unwrap_or(usize::MAX)),
        None => asked,
    };
    if cap < asked {
        tracing::warn!(
            "serving at most {cap} connections at once, not {asked}: the open-file limit is {} (raise it with ulimit -n)",
            cap as u64 + RESERVED
        );
    }
    cap.max(1)
}

#[cfg(unix)]
fn open_file_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit through a valid pointer.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    // rlim_t is u64 here, but not on every Unix.
    #[allow(clippy::unnecessary_cast)]
    let current = limit.rlim_cur as u64;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(current)
}

#[cfg(not(unix))]
fn open_file_limit() -> Option<u64> {
    None
}

fn log_start(shared: &Shared, changes: &[(String, Change)], addr: SocketAddr) {
    let served = shared.served();
    let (n, bytes) = served.served();
    let c = &shared.config;
    tracing::info!(
        "serving {n} of {} tables ({:.1} MB in memory) from {} on http://{addr}; at most {} connections, \
         header timeout {:?}, idle timeout {:?}; SIGHUP reloads the tables",
        changes.len(),
        bytes as f64 / 1e6,
        served.dir().display(),
        c.max_connections,
        c.header_timeout,
        c.idle_timeout,
    );
    log_changes(changes, false);
}

fn log_changes(changes: &[(String, Change)], reload: bool) {
    for (file, change) in changes {
        match change {
            Change::Served { same: false } if reload => tracing::info!("{file}: serving the new file"),
            Change::Served { .. } => {}
            Change::Kept(why) => tracing::warn!("{file}: still serving the copy read before, the file fails: {why}"),
            Change::Missing(why) => tracing::warn!("{file}: not served: {why}"),
        }
    }
}

/// The server's signals, their handlers installed: SIGHUP reloads, SIGINT
/// and SIGTERM stop.
struct Signals {
    /// SIGHUP, when its handler could be installed.
    #[cfg(unix)]
    hangup: Option<tokio::signal::unix::Signal>,
    #[cfg(not(unix))]
    hangup: Option<()>,
    /// Completes at the first SIGINT or SIGTERM.
    shutdown: Pin<Box<dyn std::future::Future<Output = ()> + Send>>,
}

impl Signals {
    /// Installs every handler now (tokio installs one when the stream is
    /// made, not when it is first polled).
    #[cfg(unix)]
    fn install() -> Signals {
        use tokio::signal::unix::{signal, SignalKind};
        let hangup = signal(SignalKind::hangup()).ok();
        if hangup.is_none() {
            tracing::warn!("cannot listen for SIGHUP: restart the server to read new tables");
        }
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        let shutdown = Box::pin(async move {
            match (interrupt, terminate) {
                (Ok(mut interrupt), Ok(mut terminate)) => {
                    tokio::select! {
                        _ = interrupt.recv() => {}
                        _ = terminate.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        });
        Signals { hangup, shutdown }
    }

    #[cfg(not(unix))]
    fn install() -> Signals {
        Signals {
            hangup: None,
            shutdown: Box::pin(async {
                let _ = tokio::signal::ctrl_c().await;
            }),
        }
    }
}

#[cfg(unix)]
async fn reload_on_hangup(hangup: Option<tokio::signal::unix::Signal>, shared: Arc<Shared>) {
    let Some(mut hangups) = hangup else { return };
    while hangups.recv().await.is_some() {
        let shared = Arc::clone(&shared);
        match tokio::task::spawn_blocking(move || {
            let changes = shared.reload();
            (changes, shared.served().served())
        })
        .await
        {
            Ok((changes, (n, bytes))) => {
                tracing::info!(
                    "SIGHUP: read the tables again; serving {n} of {} ({:.1} MB in memory)",
                    changes.len(),
                    bytes as f64 / 1e6
                );
                log_changes(&changes, true);
            }
            Err(e) => tracing::error!("SIGHUP: the reload failed ({e}); still serving the tables read before"),
        }
    }
}

#[cfg(not(unix))]
async fn reload_on_hangup(_hangup: Option<()>, _shared: Arc<Shared>) {}

/// The canned answer to a connection past the cap.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
connection: close\r\ncontent-length: 56\r\n\r\n{\"error\":\"too many connections: try again in a second\"}\n";

async fn accept_loop(
    listener: tokio::net::TcpListener,
    shared: Arc<Shared>,
    open: Arc<AtomicUsize>,
    stopped: watch::Receiver<bool>,
) {
    // A descriptor kept spare: out of descriptors, closing it lets one
    // waiting connection be accepted and closed at once, so that the
    // backlog drains instead of holding clients until they time out.
    let mut spare = std::fs::File::open("/dev/null").ok();
    let mut backoff = Duration::ZERO;
    let mut last_warning: Option<Instant> = None;
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                backoff = Duration::ZERO;
                if open.load(Ordering::Acquire) >= shared.config.max_connections {
                    let _ = stream.try_write(BUSY);
                    if shared.config.log {
                        tracing::info!(target: "access", "refused a connection: {} open", shared.config.max_connections);
                    }
                    continue;
                }
                let _ = stream.set_nodelay(true);
                open.fetch_add(1, Ordering::AcqRel);
                let guard = OpenGuard(Arc::clone(&open));
                let (shared, stopped) = (Arc::clone(&shared), stopped.clone());
                tokio::spawn(async move {
                    serve_connection(stream, shared, stopped).await;
                    drop(guard);
                });
            }
            Err(e) => {
                let exhausted = matches!(
                    e.raw_os_error(),
                    Some(code) if code == libc_code::EMFILE || code == libc_code::ENFILE
                        || code == libc_code::ENOBUFS || code == libc_code::ENOMEM
                );
                if !exhausted {
                    // The connection went away before it was accepted (ECONNABORTED, ...).
                    continue;
                }
                if last_warning.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                    tracing::warn!(
                        "cannot accept a connection ({e}): shedding connections until descriptors are free; \
                         raise the open-file limit or lower --max-connections"
                    );
                    last_warning = Some(Instant::now());
                }
                if spare.take().is_some() {
                    if let Ok(Ok((stream, _))) = tokio::time::timeout(Duration::from_millis(5), listener.accept()).await
                    {
                        let _ = stream.try_write(BUSY);
                    }
                    spare = std::fs::File::open("/dev/null").ok();
                }
                backoff = (backoff * 2).clamp(Duration::from_millis(5), Duration::from_millis(500));
                tokio::time::sleep(backoff).await;
            }
        }
    }
}

/// The errno values of running out of descriptors or memory.
mod libc_code {
    #[cfg(unix)]
    pub use libc::{EMFILE, ENFILE, ENOBUFS, ENOMEM};
    #[cfg(not(unix))]
    pub const EMFILE: i32 = -1;
    #[cfg(not(unix))]
    pub const ENFILE: i32 = -1;
    #[cfg(not(unix))]
    pub const ENOBUFS: i32 = -1;
    #[cfg(not(unix))]
    pub const ENOMEM: i32 = -1;
}

struct OpenGuard(Arc<AtomicUsize>);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One connection, served until the client closes it, a deadline passes,
/// or the server stops (then the request under way is finished).
pub async fn serve_connection<I>(io: I, shared: Arc<Shared>, mut stopped: watch::Receiver<bool>)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let clock = Arc::new(Clock::new(&shared));
    let max_buf_size = shared.config.max_header_bytes.max(8192);
    let io = TokioIo::new(Timed { inner: io, clock: Arc::clone(&clock) });
    let service = {
        let clock = Arc::clone(&clock);
        service_fn(move |request: Request<hyper::body::Incoming>| {
            clock.request_started();
            let response = respond(&shared, &request, Arc::clone(&clock));
            std::future::ready(Ok::<_, Infallible>(response))
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // The deadlines are the clock's: hyper's own header timeout would
        // also cut kept-alive connections at the header timeout.
        .header_read_timeout(None)
        .half_close(true)
        .keep_alive(true)
        .max_buf_size(max_buf_size);
    let connection = builder.serve_connection(io, service);
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => return,
        () = clock.expired() => return,
        _ = stopped.wait_for(|stop| *stop) => {}
    }
    connection.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(Duration::from_secs(5), connection).await;
}

fn respond(shared: &Shared, request: &Request<hyper::body::Incoming>, clock: Arc<Clock>) -> Response<TimedBody> {
    let started = Instant::now();
    let served = shared.served();
    let (method, uri) = (request.method(), request.uri());
    let reply = match (method.as_str(), uri.path()) {
        ("GET" | "HEAD", "/metrics") => {
            let (tables, bytes) = served.served();
            Reply {
                status: 200,
                content_type: "text/plain; version=0.0.4; charset=utf-8",
                body: shared.metrics.text(tables, bytes).into(),
                allow: false,
            }
        }
        (method, path) => route(&served, method, path, uri.query()),
    };
    shared.metrics.record(reply.status, started.elapsed());
    if shared.config.log {
        tracing::info!(
            target: "access",
            method = %method,
            path = %uri.path(),
            status = reply.status,
            us = started.elapsed().as_micros() as u64,
        );
    }
    // An answer's ETag is its body's blake3: a client that has it asks
    // again with If-None-Match and gets a 304 without the body. Answers are
    // revalidated every time (no-cache), since a reload can change any;
    // the health, the info and the metrics are not kept at all.
    let volatile = matches!(uri.path(), "/healthz" | "/v1/info" | "/metrics");
    // A page file goes gzipped to a browser that takes it (its own ETag:
    // another representation).
    let page = route::page_gzipped(uri.path()).filter(|_| reply.status == 200);
    let gzipped = page.filter(|_| accepts_gzip(request));
    let etag = (reply.status == 200 && !volatile).then(|| {
        let hash = blake3::hash(reply.body.as_bytes()).to_hex();
        format!("\"{}{}\"", &hash[..32], if gzipped.is_some() { "-gzip" } else { "" })
    });
    let not_modified = etag.as_deref().is_some_and(|tag| {
        let asked = request.headers().get_all(IF_NONE_MATCH).into_iter().filter_map(|v| v.to_str().ok());
        asked.flat_map(|v| v.split(',')).any(|t| t.trim() == tag || t.trim() == "*")
    });
    let (status, body) = match (not_modified, gzipped) {
        (true, _) => (304, Bytes::new()),
        (false, Some(gz)) => (reply.status, Bytes::from_static(gz)),
        (false, None) => (reply.status, Bytes::from(reply.body.into_owned())),
    };
    let mut response = Response::new(TimedBody { inner: Full::new(body), clock });
    *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    if !not_modified {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
        if gzipped.is_some() {
            headers.insert(CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
    }
    if page.is_some() {
        headers.insert(VARY, HeaderValue::from_static("Accept-Encoding"));
    }
    if let Some(tag) = etag.and_then(|t| HeaderValue::from_str(&t).ok()) {
        headers.insert(ETAG, tag);
    }
    let kept = if volatile { "no-store" } else { "no-cache" };
    headers.insert(CACHE_CONTROL, HeaderValue::from_static(kept));
    if let Some(origin) = shared.config.cors.as_deref().filter(|_| uri.path().starts_with("/v1/")) {
        if let Ok(origin) = HeaderValue::from_str(origin) {
            headers.insert(ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            headers.insert(VARY, HeaderValue::from_static("Origin"));
        }
    }
    if reply.allow {
        headers.insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
    }
    if status == 503 {
        headers.insert(RETRY_AFTER, HeaderValue::from_static("10"));
    }
    response
}

/// Whether the request's Accept-Encoding takes gzip (and not with q=0).
fn accepts_gzip(request: &Request<hyper::body::Incoming>) -> bool {
    let values = request.headers().get_all(ACCEPT_ENCODING).into_iter().filter_map(|v| v.to_str().ok());
    values.flat_map(|v| v.split(',')).any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| p.strip_prefix("q=").is_some_and(|q| q.parse::<f64>().is_ok_and(|q| q == 0.0)));
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

/// A connection's deadline, and what it is waiting for.
#[derive(Debug)]
struct Clock {
    /// The server's header and idle timeouts.
    header_timeout: Duration,
    idle_timeout: Duration,
    epoch: Instant,
    phase: AtomicU8,
    /// Milliseconds from `epoch`.
    deadline: AtomicU64,
}

/// Waiting for a request's head to be complete (from the connection's
/// start or the request's first byte).
const HEAD: u8 = 0;
/// A request is being answered.
const BUSY_PHASE: u8 = 1;
/// Kept alive between requests.
const IDLE: u8 = 2;

impl Clock {
    fn new(shared: &Shared) -> Clock {
        let clock = Clock {
            header_timeout: shared.config.header_timeout,
            idle_timeout: shared.config.idle_timeout,
            epoch: shared.epoch,
            phase: AtomicU8::new(HEAD),
            deadline: AtomicU64::new(0),
        };
        clock.set(HEAD, clock.header_timeout);
        clock
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn set(&self, phase: u8, after: Duration) {
        self.phase.store(phase, Ordering::Release);
        self.deadline.store(self.now_ms() + after.as_millis() as u64, Ordering::Release);
    }

    /// Bytes arrived: on a kept-alive connection, a request's head begins.
    fn bytes_read(&self) {
        if self.phase.load(Ordering::Acquire) == IDLE {
            self.set(HEAD, self.header_timeout);
        }
    }

    /// A request's head is complete: answering it gets as long again.
    fn request_started(&self) {
        self.set(BUSY_PHASE, self.header_timeout);
    }

    /// The answer is written: the connection idles until the next request.
    fn answered(&self) {
        self.set(IDLE, self.idle_timeout);
    }

    /// Resolves when the deadline has passed without being moved.
    async fn expired(&self) {
        loop {
            let deadline = self.deadline.load(Ordering::Acquire);
            let now = self.now_ms();
            if now >= deadline {
                return;
            }
            tokio::time::sleep(Duration::from_millis(deadline - now)).await;
        }
    }
}

/// The connection's I/O, telling its clock when bytes arrive.
struct Timed<I> {
    inner: I,
    clock: Arc<Clock>,
}

impl<I: AsyncRead + Unpin> AsyncRead for Timed<I> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.clock.bytes_read();
        }
        polled
    }
}

impl<I: AsyncWrite + Unpin> AsyncWrite for Timed<I> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// A response body that tells the connection's clock when it is done.
pub struct TimedBody {
    inner: Full<Bytes>,
    clock: Arc<Clock>,
}

impl std::fmt::Debug for TimedBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TimedBody").finish_non_exhaustive()
    }
}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for TimedBody {
    fn drop(&mut self) {
        self.clock.answered();
    }
}

#[cfg(test)]
mod tests {
    use super::BUSY;

    /// The canned 503 is a whole response: its length is its body's, and
    /// the body one line of JSON.
    #[test]
    fn the_busy_answer_is_well_formed() {
        let text = std::str::from_utf8(BUSY).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 503 "));
        let length: usize = head.lines().find_map(|l| l.strip_prefix("content-length: ")).unwrap().parse().unwrap();
        assert_eq!(length, body.len());
        assert!(body.ends_with("}\n") && body.matches('\n').count() == 1, "{body:?}");
    }
}
