//! Reports: the totals of a run, rendered as `summary.csv` (one row per cell), `games.csv` (one
//! row per game, with `--raw`, streamed by [`GamesCsv`]), `run.toml` (how the run was made) and
//! a readable table. Writing them goes through [`ReportDir`] (the report folder as a unit: a
//! failed, interrupted or concurrent run never leaves a half-written or mixed report, nor
//! destroys the previous one).
//!
//! Every number in `summary.csv` and `games.csv` comes from integer totals formatted with a fixed
//! number of decimals, so the files are byte-identical whatever the thread count.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::experiment::{Experiment, key, quote};
use super::report_dir::{RUN_TOML_HEADER, ReportDir};
use super::stats::{PairedDiff, Z95, paired_difference, unpaired_difference, wilson};
use crate::game::{AxisValue, Outcome};
use crate::policy::{Rollout, Strategy, StrategyKind};

/// Integer totals of the games of one cell (sums, never means, so they add up in any order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Totals {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Sum of [`Game::turns`](crate::Game::turns) over the games.
    pub turns: u64,
    /// Games lost, per cause (indexed like [`Game::LOSS_CAUSES`](crate::Game::LOSS_CAUSES)).
    pub lost: Vec<u64>,
    /// Sums of [`Game::metrics`](crate::Game::metrics), per metric.
    pub metrics: Vec<i64>,
    /// The distribution of [`Game::turns`](crate::Game::turns) (turns, rounds or waves, as
    /// the game counts them): `turn_histogram[t]` games lasted exactly `t`. Grown as needed:
    /// its length is one more than the longest game's count (empty with no games), so equal
    /// games give equal vectors whatever the order they were added in. Sums to `games`.
    pub turn_histogram: Vec<u64>,
    /// With a `[compare]` baseline: the pairs of this cell's games with the baseline cell's
    /// games of the same index (game `i` of both cells shares its seeds). `None` without a
    /// baseline; the baseline cell's own counts are its pairs with itself.
    pub paired: Option<PairedCounts>,
}

/// The 2×2 table of a cell's games paired with the baseline cell's games of the same index
/// (common random numbers): how many pairs both won, only the baseline won, only this cell
/// won, and neither won. Exact integers; [`PairedCounts::difference`] gives the paired
/// difference in win rate with Newcombe's interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairedCounts {
    /// Pairs where both cells won.
    pub both: u64,
    /// Pairs where only the baseline cell won.
    pub only_baseline: u64,
    /// Pairs where only this cell won.
    pub only_cell: u64,
    /// Pairs where neither won.
    pub neither: u64,
}

impl PairedCounts {
    /// Adds one pair: whether the baseline's game and this cell's game were won.
    pub fn record(&mut self, baseline_won: bool, cell_won: bool) {
        match (baseline_won, cell_won) {
            (true, true) => self.both += 1,
            (true, false) => self.only_baseline += 1,
            (false, true) => self.only_cell += 1,
            (false, false) => self.neither += 1,
        }
    }

    /// Adds `other`'s counts (saturating: counts read from files cannot overflow).
    pub fn add(&mut self, other: &PairedCounts) {
        self.both = self.both.saturating_add(other.both);
        self.only_baseline = self.only_baseline.saturating_add(other.only_baseline);
        self.only_cell = self.only_cell.saturating_add(other.only_cell);
        self.neither = self.neither.saturating_add(other.neither);
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.both + self.only_baseline + self.only_cell + self.neither
    }

    /// This cell's win rate minus the baseline's over the pairs, with Newcombe's paired
    /// interval at `z` ([`paired_difference`]).
    pub fn difference(&self, z: f64) -> PairedDiff {
        paired_difference(
            self.both,
            self.only_baseline,
            self.only_cell,
            self.neither,
            z,
        )
    }

    /// The same difference with the unpaired interval of the same games, as if the two cells
    /// had been played on independent seeds ([`unpaired_difference`]).
    pub fn unpaired(&self, z: f64) -> PairedDiff {
        let n = self.pairs();
        unpaired_difference(
            self.both + self.only_baseline,
            n,
            self.both + self.only_cell,
            n,
            z,
        )
    }
}

impl Totals {
    /// Zero totals for a game with `causes` loss causes and `metrics` metrics.
    pub fn new(causes: usize, metrics: usize) -> Totals {
        Totals {
            games: 0,
            wins: 0,
            turns: 0,
            lost: vec![0; causes],
            metrics: vec![0; metrics],
            turn_histogram: Vec::new(),
            paired: None,
        }
    }

    /// Adds `other`'s totals to these. Saturating: totals read from files (work-area chunks,
    /// shard partials), each checked to add up ([`TotalsRecord::totals`]), cannot overflow a
    /// sum, whatever their size; the games a run plays are far from any limit.
    ///
    /// [`TotalsRecord::totals`]: super::partial::TotalsRecord::totals
    pub fn add(&mut self, other: &Totals) {
        self.games = self.games.saturating_add(other.games);
        self.wins = self.wins.saturating_add(other.wins);
        self.turns = self.turns.saturating_add(other.turns);
        for (a, b) in self.lost.iter_mut().zip(&other.lost) {
            *a = a.saturating_add(*b);
        }
        for (a, b) in self.metrics.iter_mut().zip(&other.metrics) {
            *a = a.saturating_add(*b);
        }
        if self.turn_histogram.len() < other.turn_histogram.len() {
            self.turn_histogram.resize(other.turn_histogram.len(), 0);
        }
        for (a, b) in self.turn_histogram.iter_mut().zip(&other.turn_histogram) {
            *a = a.saturating_add(*b);
        }
        match (&mut self.paired, &other.paired) {
            (Some(a), Some(b)) => a.add(b),
            (None, Some(b)) => self.paired = Some(*b),
            _ => {}
        }
    }

    /// Wins over games (`0.0` with no games).
    pub fn win_rate(&self) -> f64 {
        ratio(self.wins as f64, self.games)
    }

    /// The Wilson 95% interval of the win rate.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.games, Z95)
    }

    /// Mean turns per game.
    pub fn mean_turns(&self) -> f64 {
        ratio(self.turns as f64, self.games)
    }
}

fn ratio(sum: f64, games: u64) -> f64 {
    if games == 0 { 0.0 } else { sum / games as f64 }
}

/// One cell's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellReport {
    /// The strategy's name.
    pub strategy: String,
    /// One value per sweep axis ([`Report::axes`]).
    pub values: Vec<AxisValue>,
    /// The totals.
    pub totals: Totals,
}

/// One game's result (kept with `--raw`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Index into [`Report::cells`].
    pub cell: usize,
    /// The game's index in its cell (its seeds are `game_seed(seed, index, stream)`).
    pub index: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// Turns played.
    pub turns: u32,
    /// The game's metrics.
    pub metrics: Vec<i64>,
}

/// The results of a run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The experiment as run.
    pub experiment: Experiment,
    /// The game's name.
    pub game: &'static str,
    /// The sweep axes, in column order.
    pub axes: Vec<String>,
    /// The strategies, in the experiment's order: name and, when it came from a strategy file,
    /// its definition (recorded in `run.toml`).
    pub strategies: Vec<(String, Option<Strategy>)>,
    /// The game's loss causes (columns `lost_<cause>`).
    pub loss_causes: Vec<&'static str>,
    /// The game's metrics (columns `mean_<metric>`).
    pub metric_names: Vec<&'static str>,
    /// One entry per cell, in plan order.
    pub cells: Vec<CellReport>,
    /// One row per game, sorted by cell and index, when the run kept them in memory
    /// ([`run_experiment`](super::run_experiment) with `raw`; a streamed run leaves `None`).
    pub rows: Option<Vec<GameRow>>,
    /// The most game rows the run held in memory at once (with `raw`: at most
    /// [`RAW_CHUNK`](super::RAW_CHUNK) when streamed; 0 without `raw`).
    pub buffered_rows: usize,
    /// Worker threads used (not part of the numbers).
    pub threads: usize,
    /// Wall-clock seconds of the run (not part of the numbers); for a run resumed with
    /// `--resume`, plus the seconds the chunks it took from the work area took to play.
    pub wall_s: f64,
}

/// Fixed float formatting for the CSV files.
fn f4(x: f64) -> String {
    format!("{x:.4}")
}

fn csv_string(rows: Vec<Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.write_record(&row)
            .expect("writing CSV to memory cannot fail");
    }
    String::from_utf8(w.into_inner().expect("writing CSV to memory cannot fail"))
        .expect("CSV of UTF-8 fields is UTF-8")
}

/// The commit sololab was built from, recorded in `run.toml`: the git commit hash at build
/// time, with `-dirty` when tracked files had uncommitted changes, or `unknown` when the build
/// was not in a git work tree (set by `build.rs`).
pub const BUILD_COMMIT: &str = env!("SOLOLAB_BUILD_COMMIT");

/// The fixed columns of `summary.csv` and `games.csv` for a game with these loss causes and
/// metrics: the columns that are not sweep axes. No axis column may take one of these names
/// ([`axis_column`]).
pub fn fixed_columns(loss_causes: &[&str], metric_names: &[&str]) -> Vec<String> {
    let mut fixed: Vec<String> = [
        "experiment",
        "game",
        "strategy",
        "games",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
        "mean_turns",
        "cell",
        "index",
        "result",
        "cause",
        "turns",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    fixed.extend(loss_causes.iter().map(|c| format!("lost_{c}")));
    fixed.extend(metric_names.iter().map(|m| format!("mean_{m}")));
    fixed.extend(metric_names.iter().map(|m| m.to_string()));
    fixed
}

/// The report column of sweep axis `axis`: its name, or `setup_<axis>` when the name is one of
/// the `fixed` columns (rift's `game` axis, the campaign game, is `setup_game`, beside the
/// `game` column that names the game).
pub fn axis_column(axis: &str, fixed: &[String]) -> String {
    if fixed.iter().any(|f| f == axis) {
        format!("setup_{axis}")
    } else {
        axis.to_string()
    }
}

fn axis_columns(axes: &[String], loss_causes: &[&str], metric_names: &[&str]) -> Vec<String> {
    let fixed = fixed_columns(loss_causes, metric_names);
    axes.iter().map(|a| axis_column(a, &fixed)).collect()
}

/// The header of `summary.csv` for these sweep axes, loss causes and metrics: `experiment,
/// game, strategy`, the [axis columns](axis_column), `games, wins, win_rate, ci_low, ci_high,
/// mean_turns`, `lost_<cause>` per cause, `mean_<metric>` per metric.
pub fn summary_columns(
    axes: &[String],
    loss_causes: &[&str],
    metric_names: &[&str],
) -> Vec<String> {
    let mut h: Vec<String> = ["experiment", "game", "strategy"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    h.extend(axis_columns(axes, loss_causes, metric_names));
    h.extend(
        [
            "games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "mean_turns",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    h.extend(loss_causes.iter().map(|c| format!("lost_{c}")));
    h.extend(metric_names.iter().map(|m| format!("mean_{m}")));
    h
}

/// The header of `games.csv`: `cell, strategy`, the [axis columns](axis_column), `index,
/// result, cause, turns`, then each metric's name.
pub fn games_columns(axes: &[String], loss_causes: &[&str], metric_names: &[&str]) -> Vec<String> {
    let mut h: Vec<String> = vec!["cell".into(), "strategy".into()];
    h.extend(axis_columns(axes, loss_causes, metric_names));
    h.extend(
        ["index", "result", "cause", "turns"]
            .iter()
            .map(|s| s.to_string()),
    );
    h.extend(metric_names.iter().map(|m| m.to_string()));
    h
}

/// `games.csv` written as the rows come (the `--raw` report, streamed with bounded memory):
/// the header of [`games_columns`], then per game its cell, strategy, the cell's axis values,
/// `index` (the game's seed index), `result` (`won` or `lost`), `cause` (empty for a win),
/// `turns` and each metric's value. Rows must be given in (cell, index) order.
pub struct GamesCsv<W: Write> {
    csv: csv::Writer<W>,
    /// Per cell: `cell, strategy`, the axis values.
    prefixes: Vec<Vec<String>>,
    loss_causes: Vec<&'static str>,
    record: Vec<String>,
}

impl<W: Write> GamesCsv<W> {
    /// Starts `games.csv` on `out` for the cells and columns of `shape` (a report, whose
    /// totals are not used: [`blank_report`](super::blank_report) before a run) and writes
    /// the header.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn new(out: W, shape: &Report) -> std::io::Result<GamesCsv<W>> {
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(games_columns(
            &shape.axes,
            &shape.loss_causes,
            &shape.metric_names,
        ))?;
        let prefixes = shape
            .cells
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let mut p = vec![c.to_string(), cell.strategy.clone()];
                p.extend(cell.values.iter().map(|v| v.to_string()));
                p
            })
            .collect();
        Ok(GamesCsv {
            csv,
            prefixes,
            loss_causes: shape.loss_causes.clone(),
            record: Vec::new(),
        })
    }

    /// Writes one row per game.
    ///
    /// # Errors
    /// When the underlying writer fails.
    pub fn write_rows(&mut self, rows: &[GameRow]) -> std::io::Result<()> {
        for r in rows {
            self.record.clear();
            self.record.extend(self.prefixes[r.cell].iter().cloned());
            let (result, cause) = match r.outcome {
                Outcome::Won => ("won", ""),
                Outcome::Lost(c) => ("lost", self.loss_causes[c as usize]),
            };
            self.record.extend([
                r.index.to_string(),
                result.into(),
                cause.into(),
                r.turns.to_string(),
            ]);
            self.record.extend(r.metrics.iter().map(|m| m.to_string()));
            self.csv.write_record(&self.record)?;
        }
        Ok(())
    }

    /// Flushes and returns the writer.
    ///
    /// # Errors
    /// When the final flush fails.
    pub fn finish(self) -> std::io::Result<W> {
        self.csv.into_inner().map_err(|e| e.into_error())
    }
}

impl Report {
    /// Total games played.
    pub fn total_games(&self) -> u64 {
        self.cells.iter().map(|c| c.totals.games).sum()
    }

    /// Games per second of wall time.
    pub fn games_per_s(&self) -> f64 {
        if self.wall_s > 0.0 {
            self.total_games() as f64 / self.wall_s
        } else {
            0.0
        }
    }

    /// The report's column for each sweep axis, in order ([`axis_column`]: the axis's name,
    /// or `setup_<axis>` where the name is a fixed column).
    pub fn axis_columns(&self) -> Vec<String> {
        axis_columns(&self.axes, &self.loss_causes, &self.metric_names)
    }

    /// The header of `summary.csv` ([`summary_columns`]).
    pub fn summary_header(&self) -> Vec<String> {
        summary_columns(&self.axes, &self.loss_causes, &self.metric_names)
    }

    /// The rows of `summary.csv` as strings (without the header).
    pub fn summary_rows(&self) -> Vec<Vec<String>> {
        self.cells
            .iter()
            .map(|cell| {
                let t = &cell.totals;
                let (lo, hi) = t.interval();
                let mut row = vec![
                    self.experiment.name.clone(),
                    self.game.to_string(),
                    cell.strategy.clone(),
                ];
                row.extend(cell.values.iter().map(|v| v.to_string()));
                row.extend([
                    t.games.to_string(),
                    t.wins.to_string(),
                    f4(t.win_rate()),
                    f4(lo),
                    f4(hi),
                    f4(t.mean_turns()),
                ]);
                row.extend(t.lost.iter().map(|n| n.to_string()));
                row.extend(t.metrics.iter().map(|&s| f4(ratio(s as f64, t.games))));
                row
            })
            .collect()
    }

    /// `summary.csv`: a header and one row per cell. Floats have 4 decimals.
    pub fn summary_csv(&self) -> String {
        let mut rows = vec![self.summary_header()];
        rows.extend(self.summary_rows());
        csv_string(rows)
    }

    /// `turns.csv`: the turn histogram of every cell (how many games lasted each number of
    /// turns, rounds or waves, as [`Game::turns`](crate::Game::turns) counts them), for the
    /// page's turns chart without `games.csv`. Columns `cell` (the 0-based row of
    /// `summary.csv`), `strategy`, the axis columns, `turns`, `games`; one row per cell and
    /// number of turns that some game lasted, in cell then turns order. Exact integers, so the
    /// bytes do not depend on threads, shards or merging. `None` when a cell's histogram does
    /// not account for its games (a report put together without histograms).
    pub fn turns_csv(&self) -> Option<String> {
        if self
            .cells
            .iter()
            .any(|c| c.totals.turn_histogram.iter().sum::<u64>() != c.totals.games)
        {
            return None;
        }
        let mut header: Vec<String> = vec!["cell".into(), "strategy".into()];
        header.extend(self.axis_columns());
        header.extend(["turns".to_string(), "games".to_string()]);
        let mut rows = vec![header];
        for (i, cell) in self.cells.iter().enumerate() {
            for (t, &n) in cell.totals.turn_histogram.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let mut row = vec![i.to_string(), cell.strategy.clone()];
                row.extend(cell.values.iter().map(|v| v.to_string()));
                row.extend([t.to_string(), n.to_string()]);
                rows.push(row);
            }
        }
        Some(csv_string(rows))
    }

    /// `games.csv`, when the run kept its games in memory (see [`GamesCsv`] for the
    /// columns).
    pub fn games_csv(&self) -> Option<String> {
        let rows = self.rows.as_ref()?;
        let mut csv = GamesCsv::new(Vec::new(), self).expect("writing to memory cannot fail");
        csv.write_rows(rows).expect("writing to memory cannot fail");
        let bytes = csv.finish().expect("writing to memory cannot fail");
        Some(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
    }

    /// `run.toml`: a `[run]` table (crate version, the [`BUILD_COMMIT`] sololab was built from,
    /// threads, `wall_s`,
    /// `games_per_s`, total games and cells), the experiment as run under `[experiment]` (with
    /// file names resolved), and under `[strategies.<name>]` each strategy's `origin` (its
    /// file, or `"built in"`) and full definition: `kind`, its parameters and its weights per
    /// game.
    pub fn run_toml(&self) -> String {
        self.run_toml_with(&self.definition_toml())
    }

    /// `run.toml` with `definition` (the [`Report::definition_toml`] of the run it reports,
    /// such as the one a shard recorded) in place of this report's own.
    pub fn run_toml_with(&self, definition: &str) -> String {
        let mut s = format!(
            "{RUN_TOML_HEADER}\n\
             # the strategies as loaded; with the version, summary.csv depends on them alone.\n\n\
             [run]\n"
        );
        s.push_str(&format!("version = {}\n", quote(env!("CARGO_PKG_VERSION"))));
        s.push_str(&format!("commit = {}\n", quote(BUILD_COMMIT)));
        s.push_str(&format!("threads = {}\n", self.threads));
        s.push_str(&format!("wall_s = {:.3}\n", self.wall_s));
        s.push_str(&format!("games_per_s = {:.1}\n", self.games_per_s()));
        s.push_str(&format!("games = {}\n", self.total_games()));
        s.push_str(&format!("cells = {}\n\n", self.cells.len()));
        s.push_str(&self.precision_toml());
        s.push_str(definition);
        s
    }

    /// What was run, the part of `run.toml` that does not depend on the machine: the
    /// experiment as run under `[experiment]` and each strategy's origin and definition under
    /// `[strategies.<name>]`. Shards of one run record the same text, and `merge` compares it.
    pub fn definition_toml(&self) -> String {
        let mut s = self.experiment.to_toml_table(Some("experiment"));
        for (name, definition) in &self.strategies {
            s.push('\n');
            s.push_str(&strategy_toml(name, definition.as_ref()));
        }
        s
    }

    /// `[precision]` of `run.toml` when the experiment has a precision target (else empty):
    /// `target`, `max_games`, `met` (every cell met it), and per cell in `summary.csv`'s row
    /// order `games_needed` (the games it played: batches until it met the target or reached
    /// `max_games`) and `cell_met`.
    pub fn precision_toml(&self) -> String {
        let (Some(target), Some(most)) = (self.experiment.precision, self.experiment.max_games)
        else {
            return String::new();
        };
        let met: Vec<bool> = self
            .cells
            .iter()
            .map(|c| super::meets_precision(&c.totals, target))
            .collect();
        let games: Vec<String> = self
            .cells
            .iter()
            .map(|c| c.totals.games.to_string())
            .collect();
        let shown: Vec<String> = met.iter().map(|m| m.to_string()).collect();
        format!(
            "[precision]\ntarget = {}\nmax_games = {most}\nmet = {}\ngames_needed = [{}]\n\
             cell_met = [{}]\n\n",
            toml::Value::Float(target),
            met.iter().all(|&m| m),
            games.join(", "),
            shown.join(", ")
        )
    }

    /// The header of `pairs.csv` ([`Report::pairs_csv`]).
    pub fn pairs_header(&self) -> Vec<String> {
        let mut h: Vec<String> = ["experiment", "game", "strategy"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        h.extend(self.axis_columns());
        h.extend(
            [
                "baseline",
                "pairs",
                "both_won",
                "only_baseline_won",
                "only_cell_won",
                "neither_won",
                "baseline_win_rate",
                "win_rate",
                "diff",
                "ci_low",
                "ci_high",
                "unpaired_ci_low",
                "unpaired_ci_high",
                "variance_reduction",
                "games_saved",
            ]
            .iter()
            .map(|s| s.to_string()),
        );
        h
    }

    /// `pairs.csv`, when the experiment has a `[compare]` baseline: one row per cell other
    /// than the baseline, with its games paired with the baseline's games of the same index
    /// ([`PairedCounts`]): the counts, both win rates over the pairs, `diff` (this cell's
    /// win rate minus the baseline's) with Newcombe's paired 95% interval (`ci_low`,
    /// `ci_high`), the unpaired 95% interval of the same games (`unpaired_ci_*`, as if the
    /// cells had independent seeds), `variance_reduction` = 1 - (paired width / unpaired
    /// width)², and `games_saved`: how many more games per cell an unpaired comparison would
    /// need for an interval as narrow (pairs × (unpaired width / paired width)² - pairs,
    /// rounded). `baseline` names the baseline cell (`strategy=greedy ruins=3`).
    pub fn pairs_csv(&self) -> Option<String> {
        let b = self.experiment.baseline_cell()?;
        let base = self.cells.get(b)?;
        let mut name = vec![format!("strategy={}", base.strategy)];
        for (axis, v) in self.axes.iter().zip(&base.values) {
            name.push(format!("{axis}={v}"));
        }
        let name = name.join(" ");
        let mut rows = vec![self.pairs_header()];
        for (c, cell) in self.cells.iter().enumerate() {
            if c == b {
                continue;
            }
            let p = cell.totals.paired.unwrap_or_default();
            let n = p.pairs();
            let paired = p.difference(Z95);
            let unpaired = p.unpaired(Z95);
            let (wp, wu) = (paired.hi - paired.lo, unpaired.hi - unpaired.lo);
            let (reduction, saved) = if wp > 0.0 && n > 0 {
                let r = (wu / wp).powi(2);
                (1.0 - 1.0 / r, (n as f64 * r - n as f64).round())
            } else {
                (0.0, 0.0)
            };
            let mut row = vec![
                self.experiment.name.clone(),
                self.game.to_string(),
                cell.strategy.clone(),
            ];
            row.extend(cell.values.iter().map(|v| v.to_string()));
            row.extend([
                name.clone(),
                n.to_string(),
                p.both.to_string(),
                p.only_baseline.to_string(),
                p.only_cell.to_string(),
                p.neither.to_string(),
                f4(ratio((p.both + p.only_baseline) as f64, n)),
                f4(ratio((p.both + p.only_cell) as f64, n)),
                f4(paired.diff),
                f4(paired.lo),
                f4(paired.hi),
                f4(unpaired.lo),
                f4(unpaired.hi),
                f4(reduction),
                format!("{saved:.0}"),
            ]);
            rows.push(row);
        }
        Some(csv_string(rows))
    }

    /// A readable, aligned table of the summary for the terminal.
    pub fn table(&self) -> String {
        let mut header: Vec<String> = vec!["strategy".into()];
        header.extend(self.axis_columns());
        header.extend(
            ["games", "win_rate", "95% CI", "turns"]
                .iter()
                .map(|s| s.to_string()),
        );
        header.extend(self.loss_causes.iter().map(|c| format!("lost_{c}")));
        header.extend(self.metric_names.iter().map(|m| m.to_string()));
        let mut rows = vec![header];
        for cell in &self.cells {
            let t = &cell.totals;
            let (lo, hi) = t.interval();
            let mut row = vec![cell.strategy.clone()];
            row.extend(cell.values.iter().map(|v| v.to_string()));
            row.extend([
                t.games.to_string(),
                format!("{:.1}%", 100.0 * t.win_rate()),
                format!("{:.1}-{:.1}%", 100.0 * lo, 100.0 * hi),
                format!("{:.1}", t.mean_turns()),
            ]);
            row.extend(t.lost.iter().map(|n| n.to_string()));
            row.extend(
                t.metrics
                    .iter()
                    .map(|&s| format!("{:.2}", ratio(s as f64, t.games))),
            );
            rows.push(row);
        }
        let columns = rows[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let text_columns = 1 + self.axes.len();
        let mut out = String::new();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, v)| {
                    if c < text_columns {
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
}

/// `[strategies.<name>]` of `run.toml`: where the strategy came from and its parsed definition.
fn strategy_toml(name: &str, definition: Option<&Strategy>) -> String {
    let table = format!("strategies.{}", key(name));
    let mut s = format!("[{table}]\n");
    let Some(strategy) = definition else {
        s.push_str("origin = \"given in code\"\n");
        return s;
    };
    let origin = match strategy.origin.strip_suffix(" (built in)") {
        Some(_) => "built in",
        None => strategy.origin.as_str(),
    };
    let float = |x: f64| toml::Value::Float(x).to_string();
    s.push_str(&format!("origin = {}\n", quote(origin)));
    s.push_str(&format!("kind = {}\n", quote(strategy.kind.name())));
    let weights = match &strategy.kind {
        StrategyKind::Random => return s,
        StrategyKind::Greedy { samples, weights } => {
            s.push_str(&format!("samples = {samples}\n"));
            weights
        }
        StrategyKind::Beam {
            width,
            depth,
            samples,
            weights,
        } => {
            s.push_str(&format!("width = {width}\n"));
            s.push_str(&format!("depth = {depth}\n"));
            s.push_str(&format!("samples = {samples}\n"));
            weights
        }
        StrategyKind::Mcts { config, weights } => {
            let rollout = match config.rollout {
                Rollout::Random => "random",
                Rollout::Greedy => "greedy",
                Rollout::Beam => "beam",
            };
            s.push_str(&format!("iterations = {}\n", config.iterations));
            s.push_str(&format!("exploration = {}\n", float(config.exploration)));
            s.push_str(&format!("rollout = {}\n", quote(rollout)));
            s.push_str(&format!("rollout_depth = {}\n", config.rollout_depth));
            s.push_str(&format!("rollout_samples = {}\n", config.rollout_samples));
            s.push_str(&format!("widening = {}\n", float(config.widening)));
            s.push_str(&format!("stop_at_chance = {}\n", config.stop_at_chance));
            s.push_str(&format!("see_hidden = {}\n", config.see_hidden));
            s.push_str(&format!("clairvoyant = {}\n", config.clairvoyant));
            s.push_str(&config.optional_keys_toml());
            weights
        }
    };
    for (game, features) in weights {
        s.push_str(&format!("\n[{table}.weights.{}]\n", key(game)));
        for (feature, w) in features {
            s.push_str(&format!("{} = {}\n", key(feature), float(*w)));
        }
    }
    s
}

/// A report folder or file that could not be used.
#[derive(Debug)]
pub enum ReportError {
    /// Creating the report folder (or one above it) failed.
    CreateDir {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Writing or renaming a file failed.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Another run holds the report folder's lock.
    Locked {
        /// What is locked: the folder (Unix) or its lock file.
        lock: PathBuf,
    },
    /// The folder exists and is not a previous sololab report (it is a file, or holds files
    /// sololab did not write); nothing in it is touched.
    NotAReport {
        /// The folder.
        path: PathBuf,
        /// What is in the way.
        reason: String,
    },
    /// The folder holds a report of another kind (a sensitivity analysis, a calibration, a
    /// strength curve, a shard's partial totals or a run's report), which this command's
    /// report would replace: each
    /// command replaces only its own kind, so that, say, `sololab run` on a sensitivity
    /// experiment's file does not wipe out its tornado chart. Nothing is touched.
    OtherKind {
        /// The folder.
        path: PathBuf,
        /// The main file of the report it holds (e.g. `sensitivity.csv`).
        held: &'static str,
        /// The main file of the report that would replace it (e.g. `summary.csv`).
        new: &'static str,
    },
    /// A folder of the path has a name sololab keeps for its own files and folders (beginning
    /// with `.sololab`: the marker, the work area, staging folders), which a run could take
    /// for its own and remove.
    ReservedName {
        /// The path.
        path: PathBuf,
        /// The reserved name in it.
        name: String,
    },
    /// The path has no folder name (`.`, `..`, `/`).
    NotAFolderName {
        /// The path.
        path: PathBuf,
    },
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::CreateDir { path, source } => {
                write!(
                    f,
                    "{}: cannot create the report folder: {source}",
                    path.display()
                )
            }
            ReportError::Write { path, source } => {
                write!(f, "{}: cannot write: {source}", path.display())
            }
            ReportError::Locked { lock } => write!(
                f,
                "{}: locked by another sololab run writing this report folder; wait for it to \
                 end or choose another --out",
                lock.display()
            ),
            ReportError::NotAReport { path, reason } => write!(
                f,
                "{}: not a sololab report folder ({reason}); nothing was written: \
                 choose another --out",
                path.display()
            ),
            ReportError::OtherKind { path, held, new } => write!(
                f,
                "{}: holds another kind of report ({held}), which this report ({new}) would \
                 replace; nothing was written: choose another --out, or remove the folder",
                path.display()
            ),
            ReportError::ReservedName { path, name } => write!(
                f,
                "{}: '{name}' is a name sololab keeps for its own files (names beginning with \
                 '.sololab': the marker, the work area, staging folders); nothing was written: \
                 choose another --out",
                path.display()
            ),
            ReportError::NotAFolderName { path } => {
                write!(f, "{}: not a folder name for a report", path.display())
            }
        }
    }
}

/// The IO error is part of the message, so it is not also given as the `source` (an error
/// chain printed in full would say it twice).
impl std::error::Error for ReportError {}

/// The file of a report folder with the cells' turn histograms ([`Report::turns_csv`]).
pub const TURNS_CSV: &str = "turns.csv";

/// The files of a report: `summary.csv`, `run.toml`, and `games.csv` with `raw` (for
/// [`ReportDir::open`], which checks them before the run).
pub fn report_files(raw: bool) -> Vec<&'static str> {
    let mut files = vec!["summary.csv", "run.toml"];
    if raw {
        files.push("games.csv");
    }
    files
}

/// The files of `report`'s folder: [`report_files`], `turns.csv` (the turn histograms),
/// `pairs.csv` with a `[compare]` baseline and `ladder.csv` with a `[ladder]`.
pub fn report_files_of(experiment: &Experiment, raw: bool) -> Vec<&'static str> {
    let mut files = report_files(raw);
    files.push(TURNS_CSV);
    if experiment.baseline.is_some() {
        files.push("pairs.csv");
    }
    if !experiment.ladder.is_empty() {
        files.push("ladder.csv");
    }
    files
}

/// Writes `summary.csv`, `run.toml`, `turns.csv`, `pairs.csv` with `[compare]`, `ladder.csv` with
/// `[ladder]` and, when the report kept its games in memory, `games.csv` into `dir` (which may
/// already hold a streamed `games.csv`), and commits it:
/// the folder then holds this report alone. Returns the files written.
///
/// # Errors
/// A [`ReportError`] naming the file; the previous report is then left as it was.
pub fn commit_report(report: &Report, mut dir: ReportDir) -> Result<Vec<PathBuf>, ReportError> {
    dir.write("summary.csv", &report.summary_csv())?;
    dir.write("run.toml", &report.run_toml())?;
    if let Some(csv) = report.pairs_csv() {
        dir.write("pairs.csv", &csv)?;
    }
    if let Some(csv) = report.turns_csv() {
        dir.write(TURNS_CSV, &csv)?;
    }
    if let Some(csv) = report.games_csv() {
        dir.write("games.csv", &csv)?;
    }
    if let Some(csv) = super::ladder_csv(report) {
        dir.write("ladder.csv", &csv)?;
    }
    dir.commit()
}

/// Opens `dir` ([`ReportDir::open`]) and writes the report there as one unit
/// ([`commit_report`]). A run should open its folder before its first game instead, so that
/// an unusable folder is found before the work.
///
/// # Errors
/// As [`ReportDir::open`] and [`commit_report`]; the previous report is then left as it was.
pub fn write_report(report: &Report, dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let files = report_files_of(&report.experiment, report.rows.is_some());
    commit_report(report, ReportDir::open(dir, &files)?)
}
