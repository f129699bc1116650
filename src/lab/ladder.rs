//! The skill ladder (issue 15): with `[ladder] strategies = ["random", "greedy", ...]`
//! (weakest first) an experiment's report gets `ladder.csv`: for every setup cell (one
//! combination of the sweep values), the win rate at each rung of the ladder with its Wilson
//! 95% interval, and whether each rung is separated from the one below (the two intervals do
//! not overlap). It reads the report's integer totals only, so it is as reproducible as
//! `summary.csv`.
//!
//! Columns: `experiment, game`, the [axis columns](super::axis_column), `rung` (1 = the
//! weakest), `strategy, games, wins, win_rate, ci_low, ci_high`, `separated` (empty on the
//! first rung; `true` when this rung's interval and the one below's do not overlap) and
//! `note` (empty, `not separated from <below> (Wilson intervals overlap)`, or
//! `below <below> (intervals apart)` when a stronger rung does worse).

use super::report::Report;
use super::stats::{Z95, wilson};

/// The header of `ladder.csv` for a report with these axis columns.
pub fn ladder_columns(axis_columns: &[String]) -> Vec<String> {
    let mut h: Vec<String> = vec!["experiment".into(), "game".into()];
    h.extend(axis_columns.iter().cloned());
    h.extend(
        [
            "rung",
            "strategy",
            "games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "separated",
            "note",
        ]
        .map(String::from),
    );
    h
}

/// One rung of one setup cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    /// The setup cell's index among the report's distinct sweep combinations (plan order).
    pub setup: usize,
    /// 1-based position on the ladder (1 = the weakest).
    pub rung: usize,
    /// The strategy.
    pub strategy: String,
    /// Games and wins.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Wilson 95% interval of the win rate.
    pub ci: (f64, f64),
    /// Whether the interval does not overlap the rung below's (`None` on the first rung).
    pub separated: Option<bool>,
}

/// The ladder of `report` (empty without `[ladder]`), setup cell by setup cell in the plan's
/// order, rungs weakest first. A rung whose strategy has no cell (impossible for a report of
/// a checked experiment) is left out.
pub fn ladder(report: &Report) -> Vec<Rung> {
    let names = &report.experiment.ladder;
    let mut setups: Vec<&Vec<crate::AxisValue>> = Vec::new();
    for c in &report.cells {
        if !setups.contains(&&c.values) {
            setups.push(&c.values);
        }
    }
    let mut out = Vec::new();
    for (i, values) in setups.iter().enumerate() {
        let mut below: Option<(f64, f64)> = None;
        for (r, name) in names.iter().enumerate() {
            let Some(cell) = report
                .cells
                .iter()
                .find(|c| &c.strategy == name && &c.values == *values)
            else {
                continue;
            };
            let t = &cell.totals;
            let ci = wilson(t.wins, t.games, Z95);
            let separated = below.map(|b| ci.0 > b.1 || ci.1 < b.0);
            below = Some(ci);
            out.push(Rung {
                setup: i,
                rung: r + 1,
                strategy: name.clone(),
                games: t.games,
                wins: t.wins,
                ci,
                separated,
            });
        }
    }
    out
}

/// `ladder.csv` of `report` (see the module docs), or `None` without `[ladder]`. Floats have
/// 4 decimals.
pub fn ladder_csv(report: &Report) -> Option<String> {
    if report.experiment.ladder.is_empty() {
        return None;
    }
    let rungs = ladder(report);
    let mut setups: Vec<&Vec<crate::AxisValue>> = Vec::new();
    for c in &report.cells {
        if !setups.contains(&&c.values) {
            setups.push(&c.values);
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(ladder_columns(&report.axis_columns()))
        .expect("writing CSV to memory cannot fail");
    for (k, r) in rungs.iter().enumerate() {
        let below = (k > 0 && rungs[k - 1].setup == r.setup).then(|| &rungs[k - 1]);
        let rate = |g: u64, w: u64| if g == 0 { 0.0 } else { w as f64 / g as f64 };
        let note = match (below, r.separated) {
            (Some(b), Some(false)) => {
                format!(
                    "not separated from {} (Wilson intervals overlap)",
                    b.strategy
                )
            }
            (Some(b), Some(true)) if rate(r.games, r.wins) < rate(b.games, b.wins) => {
                format!("below {} (intervals apart)", b.strategy)
            }
            _ => String::new(),
        };
        let mut row: Vec<String> = vec![report.experiment.name.clone(), report.game.to_string()];
        row.extend(setups[r.setup].iter().map(|v| v.to_string()));
        row.extend([
            r.rung.to_string(),
            r.strategy.clone(),
            r.games.to_string(),
            r.wins.to_string(),
            format!("{:.4}", rate(r.games, r.wins)),
            format!("{:.4}", r.ci.0),
            format!("{:.4}", r.ci.1),
            r.separated.map_or(String::new(), |s| s.to_string()),
            note,
        ]);
        w.write_record(&row)
            .expect("writing CSV to memory cannot fail");
    }
    Some(
        String::from_utf8(w.into_inner().expect("writing CSV to memory cannot fail"))
            .expect("CSV of UTF-8 fields is UTF-8"),
    )
}
