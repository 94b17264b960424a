//! `GET /metrics`: what a monitoring system scrapes, in Prometheus' text
//! format: requests by status class, their answer times as a histogram,
//! reloads, and the tables served.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The upper bounds of the answer-time histogram's buckets, in seconds
/// (lookups take microseconds; a page file or a 1 MB refusal takes more).
const BUCKETS: [f64; 10] = [0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.1];

/// Counters updated by every request, read by `/metrics`.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Requests answered, by status class (1xx to 5xx).
    by_class: [AtomicU64; 5],
    /// Answers at or under each bucket's bound (not cumulative here).
    buckets: [AtomicU64; BUCKETS.len()],
    /// Answers over the last bound.
    over: AtomicU64,
    /// Nanoseconds spent answering, in all.
    nanos: AtomicU64,
    /// SIGHUP reloads done.
    reloads: AtomicU64,
}

impl Metrics {
    /// Counts an answer of `status` that took `took` to make.
    pub fn record(&self, status: u16, took: Duration) {
        let class = usize::from(status / 100).clamp(1, 5) - 1;
        self.by_class[class].fetch_add(1, Ordering::Relaxed);
        let seconds = took.as_secs_f64();
        match BUCKETS.iter().position(|&bound| seconds <= bound) {
            Some(b) => self.buckets[b].fetch_add(1, Ordering::Relaxed),
            None => self.over.fetch_add(1, Ordering::Relaxed),
        };
        self.nanos.fetch_add(u64::try_from(took.as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Counts a reload.
    pub fn reloaded(&self) {
        self.reloads.fetch_add(1, Ordering::Relaxed);
    }

    /// The text `/metrics` answers, with `tables` tables served holding
    /// `bytes` bytes in memory.
    pub fn text(&self, tables: usize, bytes: u64) -> String {
        let mut out = String::new();
        let counter = |name: &str, help: &str, out: &mut String| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter");
        };
        counter("dice_tables_requests_total", "Requests answered, by status class.", &mut out);
        for (i, n) in self.by_class.iter().enumerate() {
            let _ = writeln!(out, "dice_tables_requests_total{{code=\"{}xx\"}} {}", i + 1, n.load(Ordering::Relaxed));
        }
        let name = "dice_tables_request_duration_seconds";
        let _ = writeln!(out, "# HELP {name} Time to make an answer, from the request's head to its body.");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, n) in BUCKETS.iter().zip(&self.buckets) {
            cumulative += n.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        cumulative += self.over.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let _ = writeln!(out, "{name}_sum {}", self.nanos.load(Ordering::Relaxed) as f64 / 1e9);
        let _ = writeln!(out, "{name}_count {cumulative}");
        counter("dice_tables_reloads_total", "Reloads of the tables (SIGHUP).", &mut out);
        let _ = writeln!(out, "dice_tables_reloads_total {}", self.reloads.load(Ordering::Relaxed));
        let _ = writeln!(
            out,
            "# HELP dice_tables_tables_served Tables served now.\n# TYPE dice_tables_tables_served gauge"
        );
        let _ = writeln!(out, "dice_tables_tables_served {tables}");
        let _ = writeln!(
            out,
            "# HELP dice_tables_table_bytes Bytes of the tables served, in memory.\n# TYPE dice_tables_table_bytes gauge"
        );
        let _ = writeln!(out, "dice_tables_table_bytes {bytes}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_cumulative_and_counts_every_answer() {
        let m = Metrics::default();
        m.record(200, Duration::from_micros(30));
        m.record(200, Duration::from_micros(700));
        m.record(404, Duration::from_secs(1));
        m.reloaded();
        let text = m.text(9, 7_400_000);
        for line in [
            "dice_tables_requests_total{code=\"2xx\"} 2",
            "dice_tables_requests_total{code=\"4xx\"} 1",
            "dice_tables_request_duration_seconds_bucket{le=\"0.00005\"} 1",
            "dice_tables_request_duration_seconds_bucket{le=\"0.0005\"} 1",
            "dice_tables_request_duration_seconds_bucket{le=\"0.001\"} 2",
            "dice_tables_request_duration_seconds_bucket{le=\"0.1\"} 2",
            "dice_tables_request_duration_seconds_bucket{le=\"+Inf\"} 3",
            "dice_tables_request_duration_seconds_count 3",
            "dice_tables_reloads_total 1",
            "dice_tables_tables_served 9",
            "dice_tables_table_bytes 7400000",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
        }
    }
}
