//! Reports: the totals of a run, rendered as `summary.csv` (one row per cell), `games.csv` (one
//! row per game, with `--raw`), `run.toml` (how the run was made) and a readable table, and
//! written so that a failed or interrupted run never leaves a half-written file nor destroys the
//! previous report.
//!
//! Every number in `summary.csv` and `games.csv` comes from integer totals formatted with a fixed
//! number of decimals, so the files are byte-identical whatever the thread count.

use std::fmt;
use std::path::{Path, PathBuf};

use super::experiment::{Experiment, key, quote};
use super::stats::{Z95, wilson};
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
    /// Games lost, per cause (indexed like [`Game::loss_causes`](crate::Game::loss_causes)).
    pub lost: Vec<u64>,
    /// Sums of [`Game::metrics`](crate::Game::metrics), per metric.
    pub metrics: Vec<i64>,
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
        }
    }

    /// Adds `other`'s totals to these.
    pub fn add(&mut self, other: &Totals) {
        self.games += other.games;
        self.wins += other.wins;
        self.turns += other.turns;
        for (a, b) in self.lost.iter_mut().zip(&other.lost) {
            *a += b;
        }
        for (a, b) in self.metrics.iter_mut().zip(&other.metrics) {
            *a += b;
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
    /// One row per game, sorted by cell and index, when the run kept them.
    pub rows: Option<Vec<GameRow>>,
    /// Worker threads used (not part of the numbers).
    pub threads: usize,
    /// Wall-clock seconds of the run (not part of the numbers).
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

    /// The header of `summary.csv`.
    pub fn summary_header(&self) -> Vec<String> {
        let mut h: Vec<String> = ["experiment", "game", "strategy"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        h.extend(self.axes.iter().cloned());
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
        h.extend(self.loss_causes.iter().map(|c| format!("lost_{c}")));
        h.extend(self.metric_names.iter().map(|m| format!("mean_{m}")));
        h
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

    /// `games.csv`, when the run kept its games: `cell, strategy`, the axes, `index, result`
    /// (`won` or `lost`), `cause` (empty for a win), `turns`, then each metric's value.
    pub fn games_csv(&self) -> Option<String> {
        let rows = self.rows.as_ref()?;
        let mut header: Vec<String> = vec!["cell".into(), "strategy".into()];
        header.extend(self.axes.iter().cloned());
        header.extend(
            ["index", "result", "cause", "turns"]
                .iter()
                .map(|s| s.to_string()),
        );
        header.extend(self.metric_names.iter().map(|m| m.to_string()));
        let mut out = vec![header];
        for r in rows {
            let cell = &self.cells[r.cell];
            let mut row = vec![r.cell.to_string(), cell.strategy.clone()];
            row.extend(cell.values.iter().map(|v| v.to_string()));
            let (result, cause) = match r.outcome {
                Outcome::Won => ("won", ""),
                Outcome::Lost(c) => ("lost", self.loss_causes[c as usize]),
            };
            row.extend([
                r.index.to_string(),
                result.into(),
                cause.into(),
                r.turns.to_string(),
            ]);
            row.extend(r.metrics.iter().map(|m| m.to_string()));
            out.push(row);
        }
        Some(csv_string(out))
    }

    /// `run.toml`: a `[run]` table (crate version, `commit` when known, threads, `wall_s`,
    /// `games_per_s`, total games and cells), the experiment as run under `[experiment]` (with
    /// file names resolved), and under `[strategies.<name>]` each strategy's `origin` (its
    /// file, or `"built in"`) and full definition: `kind`, its parameters and its weights per
    /// game.
    pub fn run_toml(&self, commit: Option<&str>) -> String {
        let mut s = String::from(
            "# How this report was made. [experiment] is the experiment as run and [strategies]\n\
             # the strategies as loaded; with the version, summary.csv depends on them alone.\n\n\
             [run]\n",
        );
        s.push_str(&format!("version = {}\n", quote(env!("CARGO_PKG_VERSION"))));
        if let Some(c) = commit {
            s.push_str(&format!("commit = {}\n", quote(c)));
        }
        s.push_str(&format!("threads = {}\n", self.threads));
        s.push_str(&format!("wall_s = {:.3}\n", self.wall_s));
        s.push_str(&format!("games_per_s = {:.1}\n", self.games_per_s()));
        s.push_str(&format!("games = {}\n", self.total_games()));
        s.push_str(&format!("cells = {}\n\n", self.cells.len()));
        s.push_str(&self.experiment.to_toml_table(Some("experiment")));
        for (name, definition) in &self.strategies {
            s.push('\n');
            s.push_str(&strategy_toml(name, definition.as_ref()));
        }
        s
    }

    /// A readable, aligned table of the summary for the terminal.
    pub fn table(&self) -> String {
        let mut header: Vec<String> = vec!["strategy".into()];
        header.extend(self.axes.iter().cloned());
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
        StrategyKind::Mcts { config, weights } => {
            let rollout = match config.rollout {
                Rollout::Random => "random",
                Rollout::Greedy => "greedy",
            };
            s.push_str(&format!("iterations = {}\n", config.iterations));
            s.push_str(&format!("exploration = {}\n", float(config.exploration)));
            s.push_str(&format!("rollout = {}\n", quote(rollout)));
            s.push_str(&format!("rollout_depth = {}\n", config.rollout_depth));
            s.push_str(&format!("widening = {}\n", float(config.widening)));
            s.push_str(&format!("stop_at_chance = {}\n", config.stop_at_chance));
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

/// A report file that could not be written.
#[derive(Debug)]
pub enum ReportError {
    /// Creating the report folder failed.
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
        }
    }
}

/// The IO error is part of the message, so it is not also given as the `source` (an error
/// chain printed in full would say it twice).
impl std::error::Error for ReportError {}

/// The temporary file a report file is first written to: `.<name>.tmp` in the same folder, so
/// the final rename stays on one file system.
pub fn temp_path(file: &Path) -> PathBuf {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    file.with_file_name(format!(".{name}.tmp"))
}

/// Writes `files` (path, contents) all-or-nothing as far as a file system allows: every file is
/// first written in full to its [`temp_path`], and only when all are written are they renamed
/// over the old ones. On failure the temporary files are removed and the old files are intact.
///
/// # Errors
/// The first file that could not be written or renamed.
pub fn write_atomically(files: &[(PathBuf, String)]) -> Result<(), ReportError> {
    let mut written: Vec<PathBuf> = Vec::new();
    let cleanup = |written: &[PathBuf]| {
        for t in written {
            let _ = std::fs::remove_file(t);
        }
    };
    for (path, contents) in files {
        let tmp = temp_path(path);
        if let Err(source) = write_synced(&tmp, contents) {
            let _ = std::fs::remove_file(&tmp);
            cleanup(&written);
            return Err(ReportError::Write {
                path: path.clone(),
                source,
            });
        }
        written.push(tmp);
    }
    for (i, (path, _)) in files.iter().enumerate() {
        if let Err(source) = std::fs::rename(&written[i], path) {
            cleanup(&written[i..]);
            return Err(ReportError::Write {
                path: path.clone(),
                source,
            });
        }
    }
    Ok(())
}

fn write_synced(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::fs::File::create(path)?;
    f.write_all(contents.as_bytes())?;
    f.sync_all()
}

/// Writes the report to `dir` (created if needed): `summary.csv`, `run.toml` and, when the run
/// kept its games, `games.csv` (a `games.csv` left by an earlier run is removed otherwise, so the
/// folder describes one run). `commit` is the source's git commit when known. Returns the files
/// written.
///
/// # Errors
/// A [`ReportError`] naming the folder or file; the previous report is then left as it was.
pub fn write_report(
    report: &Report,
    dir: &Path,
    commit: Option<&str>,
) -> Result<Vec<PathBuf>, ReportError> {
    std::fs::create_dir_all(dir).map_err(|source| ReportError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut files = vec![
        (dir.join("summary.csv"), report.summary_csv()),
        (dir.join("run.toml"), report.run_toml(commit)),
    ];
    let games = dir.join("games.csv");
    let raw = report.games_csv();
    let stale = raw.is_none() && games.exists();
    if let Some(csv) = raw {
        files.push((games.clone(), csv));
    }
    write_atomically(&files)?;
    if stale {
        std::fs::remove_file(&games).map_err(|source| ReportError::Write {
            path: games.clone(),
            source,
        })?;
    }
    Ok(files.into_iter().map(|(p, _)| p).collect())
}
