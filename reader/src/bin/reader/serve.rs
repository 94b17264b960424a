//! `reader serve`: the lookups over HTTP, and the web page on top of them.
//!
//! `GET /v1/lookup/GAME?ARGS` answers exactly what `reader lookup GAME
//! --ARGS --json` prints (the same lookup layer); `GET /v1/info` lists the
//! tables; `GET /healthz`; `GET /` the page (files built into the binary).
//! The tables are opened once at start and shared read-only by every
//! connection. Lookups take microseconds, so they run on the runtime's
//! worker threads without being sent elsewhere.

use std::borrow::Cow;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use axum::Router;
use clap::Args;
use dice_tables_reader::lookup::{Json, LookupError, Query, LOOKUPS};
use dice_tables_reader::{format, Tables, GAMES};

use crate::output::Failure;

/// `reader serve`'s arguments.
#[derive(Args, Debug)]
pub struct Serve {
    /// Directory holding the tables (default: `$DICE_TABLES`, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Where to listen. Loopback by default; another address (0.0.0.0:8080)
    /// serves whoever can reach this machine. Port 0 picks a free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
}

/// The web page's files, built into the binary.
const PAGE: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("web/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("web/app.js")),
    ("/style.css", "text/css; charset=utf-8", include_str!("web/style.css")),
];

/// What every request shares: the tables and the `/v1/info` answer.
struct App {
    tables: Tables,
    info: String,
}

/// Opens the tables, binds, prints `listening on http://ADDR` and serves
/// until interrupted.
pub fn run(serve: &Serve) -> Result<(), Failure> {
    let tables = crate::tables(serve.tables.clone())?;
    let info = info(&tables);
    let app = Arc::new(App { tables, info });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .build()
        .map_err(|e| Failure::Table(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(serve.addr).await.map_err(|e| {
            Failure::Usage(format!("cannot listen on {}: {e} (give another --addr, such as 127.0.0.1:0)", serve.addr))
        })?;
        let addr = listener.local_addr().map_err(|e| Failure::Usage(format!("cannot listen: {e}")))?;
        if !addr.ip().is_loopback() {
            crate::shared::error_line("reader", &format!("serving {addr}: anyone who can reach this machine may ask"));
        }
        // The line a script waits for (flushed: stdout may be a pipe).
        crate::shared::Output::default().print(&format!("listening on http://{addr}\n"));
        let router = Router::new().fallback(handle).with_state(app);
        axum::serve(listener, router)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| Failure::Table(format!("the server stopped: {e}")))
    })
}

/// `/v1/info`: every table the reader knows, with its rules, size and
/// blake3 checksum (of the whole file, as `tables/checksums.b3` lists it),
/// or why it cannot be served; and each game's lookup arguments.
fn info(tables: &Tables) -> String {
    let list = GAMES
        .iter()
        .map(|g| {
            let path = tables.dir().join(dice_tables_reader::file_name(g.id));
            let mut fields =
                vec![("game", Json::Str(g.id.to_string())), ("file", Json::Str(dice_tables_reader::file_name(g.id)))];
            // Opened now for the lookups to come (they would on first use);
            // the bytes read once for the checksum give the rules too.
            let table_error = |e| LookupError::Table(e).to_string();
            let header = g
                .open_in(tables)
                .map_err(table_error)
                .and_then(|()| std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display())))
                .and_then(|bytes| {
                    let header = format::parse_header(&bytes).map_err(table_error)?;
                    Ok((bytes, header))
                });
            match header {
                Ok((bytes, header)) => {
                    let rules = header.params.into_iter().map(|p| (Cow::Owned(p.name), Json::Int(p.value))).collect();
                    fields.push(("rules", Json::Object(rules)));
                    fields.push(("bytes", Json::Int(bytes.len() as i64)));
                    fields.push(("blake3", Json::Str(blake3::hash(&bytes).to_hex().to_string())));
                }
                Err(why) => fields.push(("error", Json::Str(why))),
            }
            Json::object(fields)
        })
        .collect();
    let lookups = LOOKUPS
        .iter()
        .map(|l| {
            let names = |list: &[&str]| Json::List(list.iter().map(|s| Json::Str(s.to_string())).collect());
            Json::object(vec![
                ("game", Json::Str(l.game.to_string())),
                ("aliases", names(l.aliases)),
                ("required", names(l.required)),
                ("optional", names(l.optional)),
            ])
        })
        .collect();
    format!("{}\n", Json::object(vec![("tables", Json::List(list)), ("lookups", Json::List(lookups))]))
}

/// Every request: routed by hand, so that every answer, errors included,
/// is JSON with the status it should have.
async fn handle(State(app): State<Arc<App>>, request: Request) -> Response {
    if request.method() != Method::GET && request.method() != Method::HEAD {
        let mut r = error(StatusCode::METHOD_NOT_ALLOWED, "only GET is served");
        r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    let path = request.uri().path();
    if let Some(game) = path.strip_prefix("/v1/lookup/") {
        return lookup(&app.tables, game, request.uri().query().unwrap_or(""));
    }
    match path {
        "/v1/info" => respond(StatusCode::OK, "application/json", app.info.clone()),
        "/healthz" => respond(StatusCode::OK, "application/json", "{\"status\":\"ok\"}\n"),
        _ => match PAGE.iter().find(|(p, _, _)| *p == path) {
            Some((_, kind, body)) => respond(StatusCode::OK, kind, *body),
            None => error(
                StatusCode::NOT_FOUND,
                "no such path: GET /v1/lookup/GAME?ARGS, /v1/info, /healthz, or / for the page",
            ),
        },
    }
}

/// `/v1/lookup/GAME?ARGS`: the lookup's JSON, or its one-line error as
/// `{"error": ...}`: 404 for an unknown game, 400 for bad arguments, 503
/// for a missing or damaged table.
fn lookup(tables: &Tables, game: &str, qs: &str) -> Response {
    match Query::from_query_string(game, qs).and_then(|q| q.answer(tables)) {
        Ok(answer) => respond(StatusCode::OK, "application/json", format!("{answer}\n")),
        Err(e) => {
            let status = match e {
                LookupError::UnknownGame(_) => StatusCode::NOT_FOUND,
                LookupError::Table(_) => StatusCode::SERVICE_UNAVAILABLE,
                _ => StatusCode::BAD_REQUEST,
            };
            error(status, &e.to_string())
        }
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    let body = Json::object(vec![("error", Json::Str(message.to_string()))]);
    respond(status, "application/json", format!("{body}\n"))
}

fn respond(status: StatusCode, kind: &'static str, body: impl Into<Body>) -> Response {
    let mut r = Response::new(body.into());
    *r.status_mut() = status;
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    r
}
