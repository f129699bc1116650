//! The table `sololab run` prints: what a person reads first, fitted to the terminal's width.
//! Per cell: the strategy, the cell's sweep values, games, the win rate with its Wilson 95%
//! interval, the main loss cause (the cause of most losses, with its share of the cell's
//! games) and, when the report has paired comparisons (`pairs.csv`), the paired difference in
//! win rate against the baseline. Everything else is in `summary.csv` and on the page.

use super::html::ReportView;
use super::stats::{Z95, wilson};

/// The narrowest a shortened text column gets (in characters, with its `…`).
const MIN_TEXT: usize = 6;

/// The terminal table of `view`, fitted to `width` columns when given (text columns are
/// shortened with `…`, the widest first, down to `MIN_TEXT` characters; a table that still
/// does not fit is printed as it is, wider than `width`). One line per cell after a header
/// line; each line ends with `\n` and has no trailing spaces.
pub fn terminal_table(view: &ReportView, width: Option<usize>) -> String {
    let mut header: Vec<String> = vec!["strategy".into()];
    header.extend(view.axes.iter().cloned());
    header.extend(["games", "win rate", "95% interval", "main loss", "of games"].map(String::from));
    let paired = paired_column(view);
    if paired.is_some() {
        header.push("vs baseline (95%)".into());
    }
    let mut rows = vec![header];
    for (i, cell) in view.cells.iter().enumerate() {
        let (lo, hi) = wilson(cell.wins, cell.games, Z95);
        let rate = if cell.games == 0 {
            0.0
        } else {
            cell.wins as f64 / cell.games as f64
        };
        let mut row = vec![cell.strategy.clone()];
        row.extend(cell.values.iter().cloned());
        row.push(cell.games.to_string());
        row.push(format!("{:.1}%", 100.0 * rate));
        row.push(format!("{:.1}-{:.1}%", 100.0 * lo, 100.0 * hi));
        let (cause, share) = main_loss(view, i);
        row.push(cause);
        row.push(share);
        if let Some(p) = &paired {
            row.push(p[i].clone());
        }
        rows.push(row);
    }
    // Left-aligned, shortenable text columns, the first shortened first: the main loss, the
    // axes, the strategy.
    let loss = 1 + view.axes.len() + 3;
    let mut text = vec![loss];
    text.extend((1..=view.axes.len()).chain([0]));
    fit(rows, &text, width)
}

/// The cause of most of cell `i`'s losses (the first such cause on a tie) and the share of
/// the cell's games lost to it (`mechs_destroyed`, `57%`), or `-` and an empty share without
/// losses.
fn main_loss(view: &ReportView, i: usize) -> (String, String) {
    let cell = &view.cells[i];
    let best = cell
        .lost
        .iter()
        .enumerate()
        .max_by_key(|&(k, &n)| (n, std::cmp::Reverse(k)));
    match best {
        Some((k, &n)) if n > 0 && cell.games > 0 => (
            view.loss_causes[k].clone(),
            format!("{:.0}%", 100.0 * n as f64 / cell.games as f64),
        ),
        _ => ("-".into(), String::new()),
    }
}

/// The paired difference against the baseline per cell from `pairs.csv` (the columns
/// [`Report::pairs_header`](super::Report::pairs_header) writes), when the report has one: the
/// row whose strategy and sweep values match the cell, its `diff` (`+4.0pp`) and 95% paired
/// interval `ci_low`, `ci_high` (`(-1.0..+9.0)`); `baseline` for the baseline cell (the one
/// the rows' `baseline` column names, `strategy=greedy ruins=3`), `-` for a cell without a
/// row. `None` without `pairs.csv` or when it lacks the `strategy` or `diff` column.
fn paired_column(view: &ReportView) -> Option<Vec<String>> {
    let pairs = view.pairs.as_ref()?;
    let h = &pairs.header;
    let find = |name: &str| h.iter().position(|c| c == name);
    let diff = find("diff")?;
    let (lo, hi) = (find("ci_low"), find("ci_high"));
    let strategy = find("strategy")?;
    let baseline = find("baseline")
        .and_then(|c| pairs.rows.first().and_then(|r| r.get(c)))
        .cloned();
    let name_of = |cell: &super::html::CellView| {
        let mut name = vec![format!("strategy={}", cell.strategy)];
        for (axis, v) in view.axes.iter().zip(&cell.values) {
            name.push(format!("{axis}={v}"));
        }
        name.join(" ")
    };
    let axes: Vec<Option<usize>> = view
        .axes
        .iter()
        .map(|a| h.iter().position(|c| c == a))
        .collect();
    let pp = |text: &str| {
        text.parse::<f64>()
            .map(|v| format!("{:+.1}", 100.0 * v))
            .unwrap_or_else(|_| text.to_string())
    };
    Some(
        view.cells
            .iter()
            .map(|cell| {
                let row = pairs.rows.iter().find(|r| {
                    r.get(strategy) == Some(&cell.strategy)
                        && axes
                            .iter()
                            .zip(&cell.values)
                            .all(|(c, v)| c.is_none_or(|c| r.get(c) == Some(v)))
                });
                match row {
                    None if baseline.as_deref() == Some(name_of(cell).as_str()) => {
                        "baseline".into()
                    }
                    None => "-".into(),
                    Some(r) if r.get(diff).is_some_and(|d| d.is_empty()) => "baseline".into(),
                    Some(r) => {
                        let d = pp(r.get(diff).map_or("", String::as_str));
                        match (lo.and_then(|c| r.get(c)), hi.and_then(|c| r.get(c))) {
                            (Some(l), Some(u)) => format!("{d}pp ({}..{})", pp(l), pp(u)),
                            _ => format!("{d}pp"),
                        }
                    }
                }
            })
            .collect(),
    )
}

/// `text` shortened to `n` characters, ending in `…` when cut.
fn shorten(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        return text.to_string();
    }
    let mut s: String = text.chars().take(n.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// Aligns `rows` (the first is the header) in columns two spaces apart, the `text` columns
/// left-aligned and the others right-aligned, shortening text columns until the lines fit
/// `width`: the first of `text` down to `MIN_TEXT` characters, then the next, and so on
/// (see [`terminal_table`]).
/// `n` and the noun, plural unless `n` is 1: `count(1, "sweep")` is "1 sweep",
/// `count(3, "finished chunk")` is "3 finished chunks" (English nouns that take an "s").
pub fn count(n: u64, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

pub fn fit(rows: Vec<Vec<String>>, text: &[usize], width: Option<usize>) -> String {
    let columns = rows.first().map_or(0, Vec::len);
    let natural = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let mut widths: Vec<usize> = (0..columns).map(natural).collect();
    if let Some(limit) = width {
        let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
        while total(&widths) > limit {
            let next = text
                .iter()
                .copied()
                .find(|&c| c < columns && widths[c] > MIN_TEXT);
            match next {
                Some(c) => widths[c] -= 1,
                None => break,
            }
        }
    }
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, v)| {
                let v = shorten(v, widths[c]);
                if text.contains(&c) {
                    format!("{v:<w$}", w = widths[c])
                } else {
                    format!("{v:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn count_is_singular_for_one_only() {
        assert_eq!(super::count(1, "sweep"), "1 sweep");
        assert_eq!(super::count(0, "thread"), "0 threads");
        assert_eq!(super::count(3, "finished chunk"), "3 finished chunks");
    }
    use super::*;
    use std::path::Path;

    const SUMMARY: &str = "experiment,game,strategy,a_rather_long_axis_name,games,wins,win_rate,ci_low,ci_high,mean_turns,lost_mechs_destroyed,lost_ruins_exhausted\n\
        x,rift,random,false,100,40,0.4000,0.3094,0.4980,5.0,50,10\n\
        x,rift,greedy,true,100,90,0.9000,0.8256,0.9448,5.0,0,10\n\
        x,rift,greedy,false,100,100,1.0000,0.9630,1.0000,5.0,0,0\n";
    const RUN: &str = "[run]\ncommit = \"abc\"\n[experiment]\nname = \"x\"\ngame = \"rift\"\n\
        strategies = [\"random\", \"greedy\"]\n";

    fn view() -> ReportView {
        ReportView::from_texts(SUMMARY, RUN, None, Path::new("r")).unwrap()
    }

    #[test]
    fn the_table_shows_rate_interval_and_main_loss() {
        let t = terminal_table(&view(), None);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0],
            "strategy  a_rather_long_axis_name  games  win rate  95% interval  main loss        of games"
        );
        assert_eq!(
            lines[1],
            "random    false                      100     40.0%    30.9-49.8%  mechs_destroyed       50%"
        );
        // A tie goes to the first cause; no loss is a dash.
        assert!(
            lines[2].ends_with("ruins_exhausted       10%"),
            "{}",
            lines[2]
        );
        assert!(lines[3].ends_with("  -"), "{}", lines[3]);
    }

    #[test]
    fn the_table_fits_the_width_by_shortening_text_columns() {
        let t = terminal_table(&view(), Some(70));
        for line in t.lines() {
            assert!(
                line.chars().count() <= 70,
                "{line} ({})",
                line.chars().count()
            );
        }
        assert!(t.contains("a_rather_lo…") || t.contains('…'), "{t}");
        // Numbers are never cut.
        assert!(t.contains("30.9-49.8%") && t.contains(" 50%"), "{t}");
    }

    #[test]
    fn paired_differences_come_from_pairs_csv() {
        // The columns Report::pairs_header writes (the baseline has no row of its own).
        let pairs = "experiment,game,strategy,a_rather_long_axis_name,baseline,pairs,both_won,\
                     only_baseline_won,only_cell_won,neither_won,baseline_win_rate,win_rate,\
                     diff,ci_low,ci_high,unpaired_ci_low,unpaired_ci_high,variance_reduction,\
                     games_saved\n\
                     x,rift,random,false,strategy=greedy a_rather_long_axis_name=true,100,35,55,\
                     5,5,0.9,0.4,-0.5,-0.6,-0.4,-0.7,-0.3,0.5,100\n";
        let v = ReportView::from_texts(SUMMARY, RUN, Some(pairs), Path::new("r")).unwrap();
        let t = terminal_table(&v, None);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].ends_with("vs baseline (95%)"), "{}", lines[0]);
        assert!(lines[1].ends_with("-50.0pp (-60.0..-40.0)"), "{}", lines[1]);
        assert!(lines[2].ends_with("baseline"), "{}", lines[2]);
        // greedy,false has no row and is not the baseline.
        assert!(lines[3].ends_with(" -"), "{}", lines[3]);
    }
}
