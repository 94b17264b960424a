//! `reader serve`: every endpoint, the golden lookups and refusals over
//! HTTP, and input that must be refused without harm.

use dice_tables_tests::http::{query_string, Client, Server};
use dice_tables_tests::{default_tables, golden_cli, repo_tables, run, scratch, target_tables};
use serde_json::Value;

fn golden(file: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden").join(file);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn healthy(server: &Server) {
    let r = server.connect().get("/healthz").expect("answers");
    assert_eq!((r.status, r.json()), (200, serde_json::json!({"status": "ok"})));
}

/// Every golden lookup over HTTP gets its answer, and for some of them the
/// body is byte for byte what `reader lookup ... --json` prints.
#[test]
fn every_golden_lookup_over_http() {
    let server = Server::start(default_tables());
    let mut client = server.connect();
    for game in ["yazy", "combo", "threes", "tenk", "yatzy", "yahtzee", "duel"] {
        let file = golden(&format!("{game}.json"));
        for (i, lookup) in file["lookups"].as_array().unwrap().iter().enumerate() {
            let query = lookup["query"].as_object().unwrap();
            let r = client.get(&format!("/v1/lookup/{game}?{}", query_string(query))).expect("answers");
            assert_eq!(r.status, 200, "{game} {query:?}: {}", r.text());
            assert_eq!(r.header("content-type"), Some("application/json"));
            assert_eq!(r.json(), lookup["answer"], "{game} {query:?}");
            if i % 40 == 0 {
                let cli = golden_cli(game, query, default_tables());
                assert_eq!(r.body, cli.stdout, "{game} {query:?}: the CLI's bytes");
            }
        }
    }
    // Aliases, and flags given as name=true.
    let mut get = |t: &str| client.get(t).unwrap().json();
    assert_eq!(get("/v1/lookup/10000?remaining=6"), get("/v1/lookup/tenk?remaining=6"));
    assert_eq!(get("/v1/lookup/tenk2?me=0&opp=0"), get("/v1/lookup/duel?me=0&opp=0"));
    assert_eq!(get("/v1/lookup/tenk?remaining=6&opening=true"), get("/v1/lookup/tenk?remaining=6&opening"));
    assert_eq!(get("/v1/lookup/yazy?mask=ones%2Cyazy"), get("/v1/lookup/yazy?mask=1025"));
    // need= reads the target tables; one not built is a 503 naming its make target.
    let p = get("/v1/lookup/yazy?mask=all&need=200")["p"].as_f64().unwrap();
    assert!((p - 0.2191338).abs() < 1e-7, "{p}");
    let r = client.get("/v1/lookup/yatzy?mask=all&upper=0&need=200").unwrap();
    assert_eq!(r.status, 503, "{}", r.text());
    assert!(r.json()["error"].as_str().unwrap().contains("make target-tables"), "{}", r.text());
    // /v1/curve/GAME: the CLI's JSON byte for byte.
    let r = client.get("/v1/curve/yazy").unwrap();
    let cli = run("reader", &["curve", "yazy", "--json", "--tables", default_tables().to_str().unwrap()], &[]);
    assert_eq!((r.status, &r.body), (200, &cli.stdout));
    assert_eq!(client.get("/v1/curve/yatzy").unwrap().status, 503);
    let r = client.get("/v1/curve/chess").unwrap();
    assert_eq!(r.status, 404, "{}", r.text());
}

/// `/v1/review/NAME?game=TEXT`: the CLI's JSON byte for byte, for a rule
/// set's game (and played for a target, `&target=POINTS`) and a Yatzy game
/// (its own table read as its preset's); a bad
/// line, another parameter or a built-in game not reviewed (combo) a 400
/// with the CLI's message; no such rule set a 404. A game against someone
/// is reviewed from the two-player table; a rule set with none is a 404.
/// A game of two-player 10000 is reviewed from the duel table, a turn of threes from its table.
#[test]
fn a_rule_set_s_game_is_reviewed_over_http() {
    let made = dice_tables_tests::made_tables();
    let server = Server::start(&made);
    let mut client = server.connect();
    let game = "466 keep 66\n566 score sixes\n123 keep 3\n356 score thirteen\n";
    let file = dice_tables_tests::scratch("serve-review").join("crag.txt");
    std::fs::write(&file, game).unwrap();
    let tables = made.to_str().unwrap();
    let cli = run("reader", &["review", "crag", file.to_str().unwrap(), "--json", "--tables", tables], &[]);
    let encoded = game.replace(' ', "+").replace('\n', "%0A");
    let r = client.get(&format!("/v1/review/crag?game={encoded}")).unwrap();
    assert_eq!((r.status, &r.body), (200, &cli.stdout), "{}", r.text());
    let r = client.get("/v1/review/crag?game=466+keep+66%0A123+score+sixes").unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["error"], "line 2 (123 score sixes): the dice do not hold the 66 kept");
    let r = client.get("/v1/review/crag?game=466+keep+66&dice=1").unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    let yatzy = dice_tables_tests::repo_tables().join("../tests/golden/yatzy-three-mistakes.txt");
    let cli = run("reader", &["review", yatzy.to_str().unwrap(), "--json", "--tables", tables], &[]);
    let text = std::fs::read_to_string(&yatzy).unwrap();
    let r = client.get(&format!("/v1/review/yatzy?game={}", text.replace(' ', "+").replace('\n', "%0A"))).unwrap();
    assert_eq!((r.status, &r.body), (200, &cli.stdout), "{}", r.text());
    assert_eq!(client.get("/v1/review/combo?game=12345+score+chance").unwrap().status, 400);
    assert_eq!(client.get("/v1/review/chess?game=12345+score+chance").unwrap().status, 404);
    // Played for a target: `target=POINTS` as `--target POINTS`.
    let cli = run(
        "reader",
        &["review", "crag", file.to_str().unwrap(), "--json", "--target", "150", "--tables", tables],
        &[],
    );
    let r = client.get(&format!("/v1/review/crag?game={encoded}&target=150")).unwrap();
    assert_eq!((r.status, &r.body), (200, &cli.stdout), "{}", r.text());
    assert_eq!(r.json()["target"], 150);
    let r = client.get(&format!("/v1/review/crag?game={encoded}&target=0")).unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(
        r.json()["error"],
        "the game's text: target \"0\": a target is a whole number of points, 1 or more (target: 200)"
    );
    // Against someone (lines numbered by their player), from the two-player table.
    let against = dice_tables_tests::duel_review_tables();
    let duel_server = Server::start(against);
    let duel = "1: 11236 keep 11\n1: 11456 keep 11\n1: 11145 score ones\n2: 22345 keep 2\n";
    std::fs::write(&file, duel).unwrap();
    let dir = against.to_str().unwrap();
    let cli = run("reader", &["review", "forced-yatzy", file.to_str().unwrap(), "--json", "--tables", dir], &[]);
    let encoded = duel.replace(' ', "+").replace('\n', "%0A");
    let r = duel_server.connect().get(&format!("/v1/review/forced-yatzy?game={encoded}")).unwrap();
    assert_eq!((r.status, &r.body), (200, &cli.stdout), "{}", r.text());
    assert_eq!(r.json()["players"][1]["player"], 2);
    let r = client.get("/v1/review/crag?game=1:+466+keep+66").unwrap();
    assert_eq!(r.status, 404, "{}", r.text());
    // A game of two-player 10000, in each player's chance of winning.
    let tenk = dice_tables_tests::repo_tables().join("../tests/golden/duel-two-mistakes.txt");
    let cli = run("reader", &["review", "duel", tenk.to_str().unwrap(), "--json", "--tables", tables], &[]);
    let text = std::fs::read_to_string(&tenk).unwrap();
    let r = client.get(&format!("/v1/review/duel?game={}", text.replace(' ', "+").replace('\n', "%0A"))).unwrap();
    assert_eq!((r.status, &r.body), (200, &cli.stdout), "{}", r.text());
    assert_eq!(r.json()["largest_mistakes"], serde_json::json!([34, 65]));
    // A turn of threes, in the chance of success against the record.
    let turn = "game: threes\nrecord: 8\n33456 keep 6\n1245 keep 1\n245 keep 245\n";
    std::fs::write(&file, turn).unwrap();
    let cli = run("reader", &["review", "threes", file.to_str().unwrap(), "--json", "--tables", tables], &[]);
    let r = client.get(&format!("/v1/review/threes?game={}", turn.replace(' ', "+").replace('\n', "%0A"))).unwrap();
    assert_eq!((r.status, &r.body), (200, &cli.stdout), "{}", r.text());
    let r = client.get("/v1/review/duel?game=1:+1123+keep+1+throw").unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["error"], "line 1 (1: 1123 keep 1 throw): 1123 is 4 dice: 6 are thrown (six open each turn)");
}

/// Every golden lookup played to reach a target, and every two-player
/// forced Yatzy lookup, over HTTP from the target tables' directory.
#[test]
fn every_golden_target_lookup_over_http() {
    let server = Server::start(target_tables());
    let mut client = server.connect();
    let (target, duel) = (golden("target.json"), golden("rule-set-duel.json"));
    for lookup in target["lookups"].as_array().unwrap().iter().chain(duel["lookups"].as_array().unwrap()) {
        let (game, query) = (lookup["game"].as_str().unwrap(), lookup["query"].as_object().unwrap());
        let r = client.get(&format!("/v1/lookup/{game}?{}", query_string(query))).expect("answers");
        assert_eq!(r.status, 200, "{game} {query:?}: {}", r.text());
        assert_eq!(r.json(), lookup["answer"], "{game} {query:?}");
    }
}

/// Every refusal of the golden file: status 400 and `{"error": message}`.
#[test]
fn every_golden_refusal_is_a_400_with_its_message() {
    let server = Server::start(default_tables());
    let mut client = server.connect();
    for entry in golden("refused.json")["refused"].as_array().unwrap() {
        let (game, query) = (entry["game"].as_str().unwrap(), entry["query"].as_object().unwrap());
        let r = client.get(&format!("/v1/lookup/{game}?{}", query_string(query))).expect("answers");
        assert_eq!(r.status, 400, "{game} {query:?}: {}", r.text());
        // Over HTTP the arguments are named as query parameters.
        let message = dice_tables_tests::in_terms(entry["error"].as_str().unwrap(), false);
        assert_eq!(r.json(), serde_json::json!({"error": message}), "{game} {query:?}");
    }
    let r = client.get("/v1/lookup/yazy").unwrap();
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("yazy lookups need mask (the arguments are mask, dice"));
    let r = client.get("/v1/lookup/yazy?mask=all&colour=red").unwrap();
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().contains("has no argument \"colour\""));
    let r = client.get("/v1/lookup/yazy?mask=all&mask=all").unwrap();
    assert_eq!((r.status, r.json()["error"].as_str().unwrap()), (400, "mask is given more than once: give it once"));
}

#[test]
fn info_health_page_and_unknown_paths() {
    let server = Server::start(default_tables());
    let mut client = server.connect();
    healthy(&server);

    // /v1/info: every table with its rules and the manifest's checksum.
    let info = client.get("/v1/info").unwrap();
    assert_eq!(info.status, 200);
    let info = info.json();
    let manifest = std::fs::read_to_string(repo_tables().join("checksums.b3")).unwrap();
    let tables = info["tables"].as_array().unwrap();
    assert_eq!(tables.len(), dice_tables_reader::GAMES.len());
    for t in tables {
        let file = t["file"].as_str().unwrap();
        if !default_tables().join(file).exists() {
            // Only the big target tables, the free joker reading's,
            // two-player yazy's and the swedish Maxi Yatzy's are left out
            // of the test tables; the server lists them with why.
            let make = match file {
                "yazy-duel.dtab" => "make yazy-duel",
                "maxi-yatzy-swedish.dtab" => "make maxi-swedish",
                f if f.starts_with("yahtzee-free") => "make yahtzee-free",
                _ => "make target-tables",
            };
            assert!(
                [
                    "yatzy-target.dtab",
                    "yahtzee-target.dtab",
                    "yahtzee-free.dtab",
                    "yahtzee-free-target.dtab",
                    "yazy-duel.dtab",
                    "maxi-yatzy-swedish.dtab"
                ]
                .contains(&file),
                "{t}"
            );
            assert!(t["error"].as_str().unwrap().contains(make), "{t}");
            continue;
        }
        let sum = t["blake3"].as_str().unwrap_or_else(|| panic!("{t}"));
        assert!(manifest.lines().any(|l| l.starts_with(sum) && l.ends_with(file)), "{file} {sum} not in the manifest");
        assert!(t["bytes"].as_u64().unwrap() > 0);
    }
    assert_eq!(tables[0]["rules"], serde_json::json!({"rerolls": 2}));
    let duel = tables.iter().find(|t| t["game"] == "duel").unwrap();
    assert_eq!(duel["rules"], serde_json::json!({"goal": 10000, "entry": 1000}));
    // A reading is named, not numbered.
    let yahtzee = tables.iter().find(|t| t["game"] == "yahtzee").unwrap();
    assert_eq!(yahtzee["rules"], serde_json::json!({"joker": "forced", "exceptions": 0}));
    assert_eq!(info["lookups"].as_array().unwrap().len(), 8);

    // The page and its files, built into the binary.
    for (path, kind, holds) in [
        ("/", "text/html; charset=utf-8", "<title>dice-tables"),
        ("/backend.js", "text/javascript; charset=utf-8", "v1/lookup/"),
        ("/play.js", "text/javascript; charset=utf-8", "tableFor"),
        ("/style.css", "text/css; charset=utf-8", ".die"),
    ] {
        let r = client.get(path).unwrap();
        assert_eq!((r.status, r.header("content-type")), (200, Some(kind)), "{path}");
        assert!(r.text().contains(holds), "{path}");
    }

    // Unknown things: JSON errors with the right status.
    let r = client.get("/v1/lookup/Chess!?x=1").unwrap();
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().starts_with("no game \"Chess!\": the games are yazy"));
    // A name a rule set may have is looked for as its table.
    let r = client.get("/v1/lookup/chess?dice=123").unwrap();
    assert_eq!(r.status, 404);
    let error = r.json()["error"].as_str().unwrap().to_string();
    assert!(error.starts_with("no game \"chess\" (the games are yazy") && error.contains("nor a rule set's table"));
    let r = client.get("/nowhere").unwrap();
    assert_eq!(r.status, 404);
    assert!(r.json()["error"].as_str().unwrap().contains("GET /v1/lookup/GAME"));
    let r = client.request("POST", "/v1/lookup/yazy?mask=all").unwrap();
    assert_eq!((r.status, r.header("allow")), (405, Some("GET, HEAD")));
    let r = client.request("HEAD", "/healthz").unwrap();
    assert_eq!(r.status, 200);
}

/// Huge and many-parameter query strings are refused, and the server goes on.
#[test]
fn hostile_requests_are_refused_without_harm() {
    let server = Server::start(default_tables());
    let megabyte = "a".repeat(1 << 20);
    let mut client = server.connect();
    // hyper refuses a head this large itself (or closes the connection).
    if let Some(r) = client.get(&format!("/v1/lookup/yazy?mask={megabyte}")) {
        assert!((400..500).contains(&r.status), "{}", r.status);
    }
    healthy(&server);
    let mut client = server.connect();
    let thousand = vec!["a"; 1000].join("&");
    let r = client.get(&format!("/v1/lookup/yazy?{thousand}")).unwrap();
    assert_eq!(r.status, 400);
    assert_eq!(r.json()["error"], "the query string has more than 16 parameters");
    let long = format!("mask={}", "1".repeat(3000));
    let r = client.get(&format!("/v1/lookup/yazy?{long}")).unwrap();
    assert_eq!(r.status, 400);
    assert!(r.json()["error"].as_str().unwrap().starts_with("the query string is 3005 bytes"));
    for bad in ["mask=%", "mask=%zz", "mask=%ff%fe", "%00=1", "mask=all&dice=%F0%9F%8E%B2"] {
        let r = client.get(&format!("/v1/lookup/yazy?{bad}")).unwrap();
        assert_eq!(r.status, 400, "{bad}");
        assert!(!r.json()["error"].as_str().unwrap().contains('\n'));
    }
    // Raw garbage on a connection of its own.
    let mut raw = std::net::TcpStream::connect(&server.addr).unwrap();
    use std::io::{Read, Write};
    let _ = raw.write_all(b"\x00\xff GARBAGE \r\n\r\n");
    let mut sink = Vec::new();
    let _ = raw.read_to_end(&mut sink);
    healthy(&server);
}

#[test]
fn missing_tables_and_bad_addresses() {
    // A directory without one table: served, and that game's lookups say so.
    let dir = scratch("serve-partial");
    for f in std::fs::read_dir(default_tables()).unwrap() {
        let f = f.unwrap().path();
        if f.file_name().unwrap() != "yazy.dtab" {
            std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
        }
    }
    let server = Server::start(&dir);
    let mut client = server.connect();
    let r = client.get("/v1/lookup/yazy?mask=all").unwrap();
    assert_eq!(r.status, 503);
    assert!(r.json()["error"].as_str().unwrap().contains("make tables"), "{}", r.text());
    assert_eq!(client.get("/v1/lookup/combo").unwrap().status, 200);
    let info = client.get("/v1/info").unwrap().json();
    assert!(info["tables"][0]["error"].as_str().unwrap().contains("yazy.dtab"));
    drop(server);

    // A damaged table: the lookups that read the damage say so, the server goes on.
    let mut bytes = std::fs::read(default_tables().join("yazy.dtab")).unwrap();
    bytes[2000] ^= 0x10; // inside the turn-start values
    std::fs::write(dir.join("yazy.dtab"), bytes).unwrap();
    let server = Server::start(&dir);
    let mut client = server.connect();
    let r = client.get("/v1/lookup/yazy?mask=all").unwrap();
    assert_eq!(r.status, 503);
    assert!(r.json()["error"].as_str().unwrap().contains("checksum"), "{}", r.text());
    assert_eq!(client.get("/v1/lookup/tenk?remaining=6").unwrap().status, 200);
    healthy(&server);
    drop(server);

    let o = run("reader", &["serve", "--tables", "/no/such/dir", "--addr", "127.0.0.1:0"], &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("does not exist") && err.lines().count() == 1, "{err}");

    let o = run("reader", &["serve", "--addr", "nowhere"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 1);

    // An address in use.
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = held.local_addr().unwrap().to_string();
    let tables = default_tables().to_str().unwrap();
    let o = run("reader", &["serve", "--tables", tables, "--addr", &addr], &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot listen on") && err.lines().count() == 1, "{err}");
}

/// Another address than loopback is served only when asked for, and the
/// server says so.
#[test]
fn other_addresses_are_explicit_and_said() {
    let help = run("reader", &["serve", "--help"], &[]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("[default: 127.0.0.1:8080]"));
    let tables = default_tables().to_str().unwrap();
    let mut child = std::process::Command::new(dice_tables_tests::bin("reader"))
        .args(["serve", "--tables", tables, "--addr", "0.0.0.0:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    use std::io::BufRead;
    std::io::BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.contains("anyone who can reach this machine may ask"), "{line}");
}

/// Several connections at once get the answers one connection gets.
#[test]
fn concurrent_connections_agree() {
    let server = Server::start(default_tables());
    let lookups = golden("duel.json")["lookups"].as_array().unwrap().clone();
    std::thread::scope(|s| {
        for t in 0..4 {
            let (server, lookups) = (&server, &lookups);
            s.spawn(move || {
                let mut client: Client = server.connect();
                for lookup in lookups.iter().skip(t).step_by(4) {
                    let q = query_string(lookup["query"].as_object().unwrap());
                    let r = client.get(&format!("/v1/lookup/duel?{q}")).unwrap();
                    assert_eq!(r.json(), lookup["answer"]);
                }
            });
        }
    });
}

/// Every answer carries an ETag (its body's blake3) and is revalidated
/// (no-cache; the health and the info are not kept: no-store); a client
/// asking with the ETag it has gets a 304 without the body. The API allows
/// no other origin unless --cors names one.
#[test]
fn answers_can_be_revalidated_and_cors_is_opt_in() {
    let server = Server::start(default_tables());
    let mut client = server.connect();
    for target in ["/v1/lookup/yazy?mask=all&dice=12456&rerolls=2", "/", "/page.js"] {
        let r = client.get(target).unwrap();
        assert_eq!(r.status, 200, "{target}");
        assert_eq!(r.header("cache-control"), Some("no-cache"), "{target}");
        assert!(r.header("access-control-allow-origin").is_none(), "{target}");
        let tag = r.header("etag").unwrap_or_else(|| panic!("{target}: no etag")).to_string();
        assert!(tag.len() == 34 && tag.starts_with('"') && tag.ends_with('"'), "{tag}");
        let again = client.request_with("GET", target, &[("If-None-Match", &tag)]).unwrap();
        assert_eq!((again.status, again.body.len()), (304, 0), "{target}");
        assert_eq!(again.header("etag"), Some(tag.as_str()));
        let other = client.request_with("GET", target, &[("If-None-Match", "\"0\"")]).unwrap();
        assert_eq!(other.status, 200);
        assert_eq!(other.body, r.body);
    }
    assert_eq!(client.get("/healthz").unwrap().header("cache-control"), Some("no-store"));
    assert_eq!(client.get("/v1/info").unwrap().header("cache-control"), Some("no-store"));
    // An error is not tagged.
    let refused = client.get("/v1/lookup/yazy").unwrap();
    assert_eq!(refused.status, 400);
    assert!(refused.header("etag").is_none());

    let dir = default_tables().to_str().unwrap();
    let open = Server::start_with(&["--tables", dir, "--addr", "127.0.0.1:0", "--cors", "https://example.org:8443"]);
    let mut client = open.connect();
    let r = client.get("/v1/lookup/yazy?mask=all").unwrap();
    assert_eq!(r.header("access-control-allow-origin"), Some("https://example.org:8443"));
    assert_eq!(r.header("vary"), Some("Origin"));
    assert!(client.get("/").unwrap().header("access-control-allow-origin").is_none(), "the page is not the API");
    let bad = dice_tables_tests::run("reader", &["serve", "--tables", dir, "--cors", "ftp://example.org"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("origin \"ftp://example.org\" is not one: give *"));
}

/// `GET /metrics`: Prometheus' text format, counting the requests by status
/// class with their answer times, the reloads and the tables served.
#[test]
fn metrics_count_what_was_answered() {
    let server = Server::start(default_tables());
    let mut client = server.connect();
    for _ in 0..3 {
        assert_eq!(client.get("/v1/lookup/yazy?mask=all").unwrap().status, 200);
    }
    assert_eq!(client.get("/v1/lookup/chess").unwrap().status, 404);
    let r = client.get("/metrics").unwrap();
    assert_eq!(r.status, 200);
    assert!(r.header("content-type").unwrap().starts_with("text/plain; version=0.0.4"));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let text = r.text();
    let value = |name: &str| -> f64 {
        let line = text
            .lines()
            .find(|l| l.starts_with(name) && l[name.len()..].starts_with(' '))
            .unwrap_or_else(|| panic!("{name}:\n{text}"));
        line[name.len()..].trim().parse().unwrap()
    };
    // The metrics request itself is counted once its answer is made.
    assert_eq!(value("dice_tables_requests_total{code=\"2xx\"}"), 3.0);
    assert_eq!(value("dice_tables_requests_total{code=\"4xx\"}"), 1.0);
    assert_eq!(value("dice_tables_request_duration_seconds_count"), 4.0);
    assert_eq!(value("dice_tables_request_duration_seconds_bucket{le=\"+Inf\"}"), 4.0);
    assert_eq!(value("dice_tables_tables_served"), 10.0);
    assert!(value("dice_tables_table_bytes") > 7e6);
    assert_eq!(value("dice_tables_reloads_total"), 0.0);
}

/// The page's files go gzipped to a browser that takes gzip (the same text,
/// a quarter of the bytes, its own ETag); not to one that refuses it.
#[test]
fn page_files_are_gzipped_for_who_takes_it() {
    use std::io::Read;
    let server = Server::start(default_tables());
    let mut client = server.connect();
    for target in ["/", "/play.js", "/style.css"] {
        let plain = client.get(target).unwrap();
        assert_eq!(plain.header("vary"), Some("Accept-Encoding"), "{target}");
        assert!(plain.header("content-encoding").is_none());
        let gz = client.request_with("GET", target, &[("Accept-Encoding", "br, gzip;q=0.8")]).unwrap();
        assert_eq!((gz.status, gz.header("content-encoding")), (200, Some("gzip")), "{target}");
        assert!(gz.body.len() * 2 < plain.body.len(), "{target}: {} of {} bytes", gz.body.len(), plain.body.len());
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(&gz.body[..]).read_to_end(&mut text).unwrap();
        assert_eq!(text, plain.body, "{target}");
        let tag = gz.header("etag").unwrap();
        assert!(tag.ends_with("-gzip\"") && Some(tag) != plain.header("etag"), "{tag}");
        assert_eq!(
            client.request_with("GET", target, &[("Accept-Encoding", "gzip"), ("If-None-Match", tag)]).unwrap().status,
            304
        );
        let refused = client.request_with("GET", target, &[("Accept-Encoding", "gzip;q=0")]).unwrap();
        assert!(refused.header("content-encoding").is_none());
        assert_eq!(refused.body, plain.body);
    }
    // Answers of the API are not gzipped.
    let r = client.request_with("GET", "/v1/lookup/yazy?mask=all", &[("Accept-Encoding", "gzip")]).unwrap();
    assert!(r.header("content-encoding").is_none() && r.header("vary").is_none());
}
