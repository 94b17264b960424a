//! Every request's answer from its method, path and query alone: the
//! routing, with no HTTP machinery, so that it is tested and fuzzed as it is.

use std::borrow::Cow;

use super::state::{Served, Status};
use dice_tables_lookup::{Json, LookupError, Query, Terms, LOOKUPS};

const JS: &str = "text/javascript; charset=utf-8";

/// The web page's files, built into the binary: the page `make site` also
/// writes, with answers from this server's API (`backend-http.js` as
/// `backend.js`; the static site has the WebAssembly reader's there).
const PAGE: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("../web/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../web/style.css")),
    ("/page.js", JS, include_str!("../web/page.js")),
    ("/play.js", JS, include_str!("../web/play.js")),
    ("/duel.js", JS, include_str!("../web/duel.js")),
    ("/advisors.js", JS, include_str!("../web/advisors.js")),
    ("/review.js", JS, include_str!("../web/review.js")),
    ("/unavailable.js", JS, include_str!("../web/unavailable.js")),
    ("/rules.js", JS, include_str!("../web/rules.js")),
    ("/coach.js", JS, include_str!("../web/coach.js")),
    ("/rules-backend.js", JS, include_str!("../web/rules-http.js")),
    ("/backend.js", JS, include_str!("../web/backend-http.js")),
];

/// A page file gzipped (level 9, once), for a browser that accepts it:
/// the page's text is about a quarter of its size so.
pub fn page_gzipped(path: &str) -> Option<&'static [u8]> {
    static GZIPPED: std::sync::LazyLock<Vec<(&str, Vec<u8>)>> = std::sync::LazyLock::new(|| {
        PAGE.iter()
            .map(|&(path, _, text)| {
                use std::io::Write;
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                // Writing to a Vec cannot fail.
                let _ = gz.write_all(text.as_bytes());
                (path, gz.finish().unwrap_or_default())
            })
            .collect()
    });
    GZIPPED.iter().find(|(p, _)| *p == path).map(|(_, bytes)| bytes.as_slice())
}

const JSON: &str = "application/json";

/// An answer: status, content type and body. Every answer that is not a
/// page file is JSON, errors included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Cow<'static, str>,
    /// Whether to say `Allow: GET, HEAD` (a 405).
    pub allow: bool,
}

impl Reply {
    fn new(status: u16, content_type: &'static str, body: impl Into<Cow<'static, str>>) -> Reply {
        Reply { status, content_type, body: body.into(), allow: false }
    }

    fn json(status: u16, json: Json) -> Reply {
        Reply::new(status, JSON, format!("{json}\n"))
    }

    fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, Json::object(vec![("error", Json::Str(message.to_string()))]))
    }
}

/// The answer to `METHOD path?query` from what is served now.
///
/// `GET /v1/lookup/GAME?ARGS`: what `reader lookup GAME --ARGS --json`
/// prints (404 for an unknown game, 400 for bad arguments with the one-line
/// message, 503 for a table not served); `/v1/curve/GAME`: what `reader
/// curve GAME --json` prints; `/v1/review/NAME?game=TEXT[&target=POINTS]`:
/// what `reader review NAME FILE --json [--target POINTS]` prints for the
/// game TEXT; `/v1/info`; `/healthz` (503 with the reason
/// when a served table's file can no longer be served; 200 naming the
/// changed files still being checked); the page.
pub fn route(served: &Served, method: &str, path: &str, query: Option<&str>) -> Reply {
    if method != "GET" && method != "HEAD" {
        return Reply { allow: true, ..Reply::error(405, "only GET is served") };
    }
    if let Some(game) = path.strip_prefix("/v1/lookup/") {
        return lookup(served, game, query.unwrap_or(""));
    }
    if let Some(game) = path.strip_prefix("/v1/curve/") {
        return curve(served, game);
    }
    if let Some(name) = path.strip_prefix("/v1/review/") {
        return review(served, name, query.unwrap_or(""));
    }
    match path {
        "/v1/info" => Reply::json(200, info(served)),
        "/healthz" => health(served),
        _ => match PAGE.iter().find(|(p, _, _)| *p == path) {
            Some((_, kind, body)) => Reply::new(200, kind, *body),
            None => Reply::error(
                404,
                "no such path: GET /v1/lookup/GAME?ARGS, /v1/curve/GAME, /v1/review/NAME?game=TEXT, /v1/info, \
                 /healthz, or / for the page",
            ),
        },
    }
}

/// `/healthz`: `{"status":"ok"}`, or 503 with the problems; either names
/// the changed files still being checked in the background, if any.
fn health(served: &Served) -> Reply {
    let (result, checking) = served.health();
    if result.is_ok() && checking.is_empty() {
        return Reply::new(200, JSON, "{\"status\":\"ok\"}\n");
    }
    let (status, mut fields) = match result {
        Ok(()) => (200, vec![("status", Json::Str("ok".into()))]),
        Err(why) => (503, vec![("status", Json::Str("unhealthy".into())), ("error", Json::Str(why))]),
    };
    if !checking.is_empty() {
        fields.push(("checking", Json::List(checking.into_iter().map(Json::Str).collect())));
    }
    Reply::json(status, Json::object(fields))
}

/// `/v1/lookup/GAME?ARGS`.
fn lookup(served: &Served, game: &str, qs: &str) -> Reply {
    let query = match Query::from_query_string(game, qs).and_then(|q| q.check().map(|()| q)) {
        Ok(query) => query,
        Err(e) => return lookup_error(e),
    };
    if let Some(Status::Missing(why)) = served.status(&query.table()) {
        return Reply::error(503, why);
    }
    match query.answer(served.tables()) {
        Ok(answer) => Reply::json(200, answer),
        Err(e) => lookup_error(e),
    }
}

/// `/v1/review/NAME?game=TEXT[&target=POINTS]`: as `reader review NAME FILE --json [--target POINTS]`.
fn review(served: &Served, name: &str, qs: &str) -> Reply {
    if let Some(Status::Missing(why)) = served.status(name) {
        return Reply::error(503, why);
    }
    match dice_tables_lookup::review::review_query(served.tables(), name, qs) {
        Ok(answer) => Reply::json(200, answer),
        Err(e) => lookup_error(e),
    }
}

/// `/v1/curve/GAME`: as `reader curve GAME --json`.
fn curve(served: &Served, game: &str) -> Reply {
    match dice_tables_lookup::curve(served.tables(), game) {
        Ok(answer) => Reply::json(200, answer),
        Err(e) => lookup_error(e),
    }
}

fn lookup_error(e: LookupError) -> Reply {
    let status = match e {
        LookupError::UnknownGame { .. }
        | LookupError::NoRuleSet { .. }
        | LookupError::NoRuleTarget { .. }
        | LookupError::NoRuleDuel { .. }
        | LookupError::NoParts { .. }
        | LookupError::NoCurve { .. } => 404,
        LookupError::Table(_) => 503,
        _ => 400,
    };
    Reply::error(status, &e.message(Terms::Http))
}

/// `/v1/info`: every table with its rules, size and blake3 (of the whole
/// file, as `tables/checksums.b3` lists it), or why it is not served; and
/// each game's lookup arguments.
fn info(served: &Served) -> Json {
    let lookups = LOOKUPS
        .iter()
        .map(|l| {
            let names = |list: &[&str]| Json::List(list.iter().map(|s| Json::Str(s.to_string())).collect());
            Json::object(vec![
                ("game", Json::Str(l.game.to_string())),
                ("aliases", names(l.aliases)),
                ("required", names(&l.required())),
                ("optional", names(&l.optional())),
            ])
        })
        .collect();
    Json::object(vec![("tables", served.info()), ("lookups", Json::List(lookups))])
}
