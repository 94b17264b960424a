//! `reader curve GAME`: a whole game's score curve, played to win beside
//! played for the average, as text, JSON, CSV or an SVG chart.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use dice_tables_lookup::{curve_json, curve_rows};
use dice_tables_reader::target::CurveRow;

use crate::output::Failure;

#[derive(Args, Debug)]
pub struct Curve {
    /// The game: yazy, yatzy or yahtzee (its target table, `make target-tables`).
    game: String,
    /// Print one JSON object: {"game", "rows": [{"score", "p_best", "p_ev", "p_ev_exact"}, ...]}.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV: a header line, then one line per total.
    #[arg(long)]
    csv: bool,
    /// Write both curves as an SVG chart to FILE (replaced whole, or left as
    /// it was), and print one line saying so (with --json or --csv, those).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Directory holding the tables (default: `$DICE_TABLES`, else ./tables).
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
}

/// The curve as asked: the text to print (the SVG written first, if asked).
pub fn run(c: &Curve) -> Result<String, Failure> {
    let tables = crate::directory::tables(c.tables.clone())?;
    let rows = curve_rows(&tables, &c.game)?;
    write_svg(c, &rows)?;
    if let (Some(path), false, false) = (&c.svg, c.json, c.csv) {
        return Ok(format!("wrote the {} chart to {} ({} totals)\n", c.game, path.display(), rows.len()));
    }
    if c.json {
        return Ok(format!("{}\n", curve_json(&c.game, &rows)));
    }
    let mut out = String::new();
    if c.csv {
        out.push_str("score,p_best,p_ev,p_ev_exact\n");
        for r in &rows {
            let _ = writeln!(out, "{},{},{},{}", r.score, r.p_best, r.p_ev, r.p_ev_exact);
        }
        return Ok(out);
    }
    let last = dice_tables_reader::target::last_player(&rows);
    let _ = writeln!(out, "{}: the chance of a whole game scoring at least each total", c.game);
    let _ = writeln!(
        out,
        "last player, knowing the score to beat (drawn from play for the average): wins {:.7} played to win, {:.7} played for the average; wins or ties {:.7} played to tie, ties {:.7} played for the average",
        last.win_to_win, last.win_for_average, last.win_or_tie_to_tie, last.tie_for_average
    );
    let _ = writeln!(out, "{:>5}  {:>10}  {:>10}  {:>10}", "score", "to win", "average", "exactly");
    for r in &rows {
        let _ = writeln!(out, "{:>5}  {:>10.7}  {:>10.7}  {:>10.7}", r.score, r.p_best, r.p_ev, r.p_ev_exact);
    }
    Ok(out)
}

fn write_svg(c: &Curve, rows: &[CurveRow]) -> Result<(), Failure> {
    let Some(path) = &c.svg else { return Ok(()) };
    let svg = svg(&c.game, rows);
    let cannot = |why: String| {
        Failure::Usage(format!(
            "--svg {}: cannot write it ({why}): give a file in an existing directory",
            path.display()
        ))
    };
    let name = path.file_name().filter(|_| !path.is_dir()).ok_or_else(|| cannot("not a file name".into()))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    // Written whole under a temporary name, then renamed over the file.
    let temp = dir.join(format!(".{}.tmp.{}", name.to_string_lossy(), std::process::id()));
    std::fs::write(&temp, svg).and_then(|()| std::fs::rename(&temp, path)).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        cannot(e.to_string())
    })
}

/// Both curves on one chart: P(score >= T) played to win and played for
/// the average, sized by its viewBox to fit a phone's width.
fn svg(game: &str, rows: &[CurveRow]) -> String {
    let (w, h, left, right, top, bottom) = (360.0, 260.0, 40.0, 12.0, 44.0, 34.0);
    // The totals where either curve is still visible, in steps of 50.
    let last = rows.iter().rposition(|r| r.p_best >= 1e-3 || r.p_ev >= 1e-3).unwrap_or(0) as f64;
    let step = if last > 500.0 { 100.0 } else { 50.0 };
    let x_max = ((last / step).ceil() * step).max(step);
    let x = |s: f64| left + (w - left - right) * s / x_max;
    let y = |p: f64| top + (h - top - bottom) * (1.0 - p);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="100%" style="max-width:720px" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{left}" y="16" font-size="13" font-weight="bold">{game}: chance of scoring at least T</text>"#
    );
    let _ = writeln!(
        out,
        r##"<line x1="{left}" y1="30" x2="{}" y2="30" stroke="#1f5fbf" stroke-width="2.5"/><text x="{}" y="34">played to win</text>"##,
        left + 18.0,
        left + 22.0
    );
    let _ = writeln!(
        out,
        r##"<line x1="{}" y1="30" x2="{}" y2="30" stroke="#d9661f" stroke-width="2" stroke-dasharray="5 3"/><text x="{}" y="34">played for the average</text>"##,
        left + 110.0,
        left + 128.0,
        left + 132.0
    );
    for k in 0..=4 {
        let p = f64::from(k) / 4.0;
        let _ = writeln!(
            out,
            r##"<line x1="{left}" y1="{0:.1}" x2="{1}" y2="{0:.1}" stroke="#ddd"/><text x="{2}" y="{3:.1}" text-anchor="end">{p}</text>"##,
            y(p),
            w - right,
            left - 4.0,
            y(p) + 4.0
        );
    }
    let mut t = 0.0;
    while t <= x_max {
        let _ = writeln!(
            out,
            r##"<line x1="{0:.1}" y1="{1}" x2="{0:.1}" y2="{2}" stroke="#ddd"/><text x="{0:.1}" y="{3}" text-anchor="middle">{t}</text>"##,
            x(t),
            top,
            h - bottom,
            h - bottom + 14.0
        );
        t += step;
    }
    let _ =
        writeln!(out, r#"<text x="{}" y="{}" text-anchor="middle">total T</text>"#, (left + w - right) / 2.0, h - 4.0);
    let line = |f: &dyn Fn(&CurveRow) -> f64| -> String {
        rows.iter()
            .filter(|r| f64::from(r.score) <= x_max)
            .map(|r| format!("{:.1},{:.1}", x(f64::from(r.score)), y(f(r))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        out,
        r##"<polyline fill="none" stroke="#d9661f" stroke-width="2" stroke-dasharray="5 3" points="{}"/>"##,
        line(&|r| r.p_ev)
    );
    let _ = writeln!(
        out,
        r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="2.5" points="{}"/>"##,
        line(&|r| r.p_best)
    );
    out.push_str("</svg>\n");
    out
}
