//! `reader serve` for the tests and the load test: the server started on a
//! free loopback port, and a small HTTP/1.1 client over one kept-alive
//! connection (std only, so what is measured is the server).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A running `reader serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Its standard error, line by line, when captured.
    log: Option<std::sync::Mutex<std::sync::mpsc::Receiver<String>>>,
}

impl Server {
    /// `reader serve --tables DIR --addr 127.0.0.1:0`, once it says where it listens.
    pub fn start(tables: &Path) -> Server {
        Server::start_with(&["--tables", tables.to_str().expect("UTF-8 path"), "--addr", "127.0.0.1:0"])
    }

    /// `reader serve ARGS`, once it says where it listens.
    pub fn start_with(args: &[&str]) -> Server {
        Server::spawn(Command::new(crate::bin("reader")), args, false)
    }

    /// `reader serve ARGS` with its standard error captured ([`Server::log_line`]).
    pub fn start_logged(args: &[&str]) -> Server {
        Server::spawn(Command::new(crate::bin("reader")), args, true)
    }

    /// `reader serve ARGS` run by `command` (such as `prlimit --nofile=256`,
    /// to which the reader's path is added), once it says where it listens.
    pub fn spawn(mut command: Command, args: &[&str], logged: bool) -> Server {
        if command.get_program() != crate::bin("reader").as_os_str() {
            command.arg(crate::bin("reader"));
        }
        let mut child = command
            .arg("serve")
            .args(args)
            .env_remove("DICE_TABLES")
            .stdout(Stdio::piped())
            .stderr(if logged { Stdio::piped() } else { Stdio::inherit() })
            .spawn()
            .expect("reader serve starts");
        let log = child.stderr.take().map(|stderr| {
            let (send, receive) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    if send.send(line).is_err() {
                        break;
                    }
                }
            });
            std::sync::Mutex::new(receive)
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("first line");
        let addr = line.trim().strip_prefix("listening on http://").unwrap_or_else(|| panic!("said {line:?}"));
        Server { addr: addr.to_string(), child, log }
    }

    /// The next line of its standard error that holds `text`, waiting up
    /// to `seconds`; `None` if none came.
    pub fn log_line(&self, text: &str, seconds: u64) -> Option<String> {
        let log = self.log.as_ref().expect("started with start_logged").lock().unwrap();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        loop {
            let left = until.checked_duration_since(std::time::Instant::now())?;
            match log.recv_timeout(left) {
                Ok(line) if line.contains(text) => return Some(line),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    }

    /// Sends it a signal (`HUP`, `TERM`, ...).
    pub fn signal(&self, name: &str) {
        let ok = Command::new("kill").arg(format!("-{name}")).arg(self.pid().to_string()).status().expect("kill");
        assert!(ok.success(), "kill -{name}");
    }

    /// Whether it is still running: its exit status if not.
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().expect("try_wait")
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Its resident memory in KiB (`VmRSS` in /proc).
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// A new connection to it.
    pub fn connect(&self) -> Client {
        Client::connect(&self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One response: status, headers (names lowercased) and body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// An HTTP/1.1 connection kept alive between requests.
pub struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    pub fn connect(addr: &str) -> Client {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_nodelay(true).expect("nodelay");
        Client { stream: BufReader::new(stream) }
    }

    /// `GET target`; `None` if the server closed the connection instead of answering.
    pub fn get(&mut self, target: &str) -> Option<Response> {
        self.request("GET", target)
    }

    pub fn request(&mut self, method: &str, target: &str) -> Option<Response> {
        self.request_with(method, target, &[])
    }

    /// `method target` with these headers besides `Host`.
    pub fn request_with(&mut self, method: &str, target: &str, headers: &[(&str, &str)]) -> Option<Response> {
        let extra: String = headers.iter().map(|(n, v)| format!("{n}: {v}\r\n")).collect();
        let head = format!("{method} {target} HTTP/1.1\r\nHost: localhost\r\n{extra}\r\n");
        self.stream.get_mut().write_all(head.as_bytes()).ok()?;
        let mut line = String::new();
        if self.stream.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let status = line.split_whitespace().nth(1)?.parse().ok()?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.stream.read_line(&mut line).ok()?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (name, value) = l.split_once(':')?;
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
        let len: usize =
            headers.iter().find(|(n, _)| n == "content-length").and_then(|(_, v)| v.parse().ok()).unwrap_or(0);
        let mut body = vec![0; if method == "HEAD" { 0 } else { len }];
        self.stream.read_exact(&mut body).ok()?;
        Some(Response { status, headers, body })
    }
}

/// A golden query as a URL query string (values percent-encoded; a flag
/// without a value as its name alone).
pub fn query_string(query: &serde_json::Map<String, serde_json::Value>) -> String {
    let encode = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    let parts: Vec<String> = query
        .iter()
        .map(|(name, value)| match value {
            serde_json::Value::Bool(true) => encode(name),
            serde_json::Value::String(s) => format!("{}={}", encode(name), encode(s)),
            other => format!("{}={}", encode(name), encode(&other.to_string())),
        })
        .collect();
    parts.join("&")
}
