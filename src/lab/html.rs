//! The report page: `report.html`, one self-contained file (the charts inline as SVG, the
//! styles inline, no script and no network), and the charts as SVG files beside it.
//!
//! The page is built from a [`ReportView`]: the numbers of a report folder as its files hold
//! them (`summary.csv`, `run.toml`, and when present `games.csv` for the turn histograms and
//! `pairs.csv` for the paired comparisons). `sololab run` builds the view from the texts it
//! writes, `sololab report DIR` from the folder's files, so the two give the same bytes. The
//! page holds no clock and nothing of the machine (threads, wall time), so it is a function of
//! the experiment and the strategies, like `summary.csv`.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::charts::{Chart, chart_files, charts};
use super::folder_page::{FolderKind, folder_page_from_dir};
use super::report::{Report, ReportError, TURNS_CSV};
use super::report_dir::{MARKER, ReportDir};
use super::stats::{Z95, wilson};

/// The page's file name.
pub const PAGE: &str = "report.html";

/// One cell of a report as the page needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct CellView {
    /// The strategy's name.
    pub strategy: String,
    /// The cell's value of each sweep axis, as written in `summary.csv`.
    pub values: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost, per loss cause ([`ReportView::loss_causes`]).
    pub lost: Vec<u64>,
    /// Mean turns per game.
    pub mean_turns: f64,
    /// Games per number of turns (index = turns), when the report has them.
    pub turns: Option<Vec<u64>>,
}

/// A CSV file as a header and rows of strings.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Table {
    /// Column names.
    pub header: Vec<String>,
    /// Rows, each as long as the header.
    pub rows: Vec<Vec<String>>,
}

/// The numbers of a report folder, as read from its files (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ReportView {
    /// The experiment's name.
    pub experiment: String,
    /// The game's name.
    pub game: String,
    /// The commit sololab was built from (`run.toml`'s `[run] commit`).
    pub commit: String,
    /// The sweep axes' columns, in order.
    pub axes: Vec<String>,
    /// The strategies, in the experiment's order.
    pub strategies: Vec<String>,
    /// The game's loss causes (from the `lost_<cause>` columns).
    pub loss_causes: Vec<String>,
    /// The cells, in `summary.csv`'s order.
    pub cells: Vec<CellView>,
    /// `summary.csv` itself (the metrics table).
    pub summary: Table,
    /// The `[experiment]` part of `run.toml`: the experiment as run.
    pub experiment_toml: String,
    /// Each strategy's `[strategies.<name>]` part of `run.toml` (its origin and definition).
    pub strategy_toml: Vec<(String, String)>,
    /// `pairs.csv` (the paired comparisons against the `[compare]` baseline), when present.
    pub pairs: Option<Table>,
    /// The `[ladder]` strategies, weakest first, when the experiment has a ladder.
    pub ladder: Option<Vec<String>>,
}

pub(super) fn csv_table(text: &str, file: &Path) -> Result<Table, String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| format!("{}: {e}", file.display()))?;
        rows.push(record.iter().map(str::to_string).collect::<Vec<_>>());
    }
    if rows.is_empty() {
        return Err(format!("{}: empty, no header line", file.display()));
    }
    let header = rows.remove(0);
    Ok(Table { header, rows })
}

/// The finite number in column `c` of a `summary.csv` row, or the error `wrong` makes for it.
fn number(
    row: &[String],
    c: usize,
    wrong: &dyn Fn(usize, String) -> String,
) -> Result<f64, String> {
    let v = row.get(c).map_or("", String::as_str);
    match v.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        _ => Err(wrong(c, format!("is '{v}', not a number"))),
    }
}

/// Half a unit of the last decimal place `written` (a number as written: `0.6000` is within
/// 0.00005 of its value), the most rounding can have moved it.
fn rounding(written: &str) -> f64 {
    let w = written.trim().to_ascii_lowercase();
    let (mantissa, exponent) = w.split_once('e').unwrap_or((&w, "0"));
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len()) as i32;
    0.5 * 10f64.powi(
        exponent
            .parse::<i32>()
            .unwrap_or(0)
            .saturating_sub(decimals),
    )
}

/// Checks a `summary.csv` row's `win_rate`, `ci_low` and `ci_high` (when the header has them):
/// numbers in `0..=1` with `ci_low <= win_rate <= ci_high`, and `win_rate` equal to
/// `wins / games` (`0` without games) within the rounding of the decimals written.
fn check_rates(
    row: &[String],
    h: &[String],
    games: u64,
    wins: u64,
    wrong: &dyn Fn(usize, String) -> String,
) -> Result<(), String> {
    let mut rates = [None; 3];
    for (k, name) in ["win_rate", "ci_low", "ci_high"].iter().enumerate() {
        let Some(c) = h.iter().position(|x| x == name) else {
            continue;
        };
        let x = number(row, c, wrong)?;
        if !(0.0..=1.0).contains(&x) {
            return Err(wrong(c, format!("is {x}, outside 0..=1")));
        }
        rates[k] = Some((c, x));
    }
    if let Some((c, rate)) = rates[0] {
        let exact = if games == 0 {
            0.0
        } else {
            wins as f64 / games as f64
        };
        if (rate - exact).abs() > rounding(&row[c]) + 1e-12 {
            return Err(wrong(
                c,
                format!(
                    "is {}, but wins/games is {wins}/{games} = {exact:.4}",
                    row[c]
                ),
            ));
        }
    }
    if let (Some((_, rate)), Some((c, low))) = (rates[0], rates[1])
        && low > rate
    {
        return Err(wrong(c, format!("is {low}, above the win_rate {rate}")));
    }
    if let (Some((_, rate)), Some((c, high))) = (rates[0], rates[2])
        && high < rate
    {
        return Err(wrong(c, format!("is {high}, below the win_rate {rate}")));
    }
    if let (None, Some((_, low)), Some((c, high))) = (rates[0], rates[1], rates[2])
        && high < low
    {
        return Err(wrong(c, format!("is {high}, below the ci_low {low}")));
    }
    Ok(())
}

/// The part of `text` (a `run.toml`) from the line `[start` up to the first following line
/// starting a table that does not begin with `[start` (or the end).
pub(super) fn toml_part(text: &str, start: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with('[') {
            let name = line.trim_start_matches('[');
            inside = name.starts_with(start) && name[start.len()..].starts_with(['.', ']']);
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.trim_end().to_string()
}

impl ReportView {
    /// Reads the view from the texts of a report's files: `summary.csv`, `run.toml`, and
    /// optionally `pairs.csv`. `shown` is the report folder, for messages. Turn histograms are
    /// added by [`ReportView::set_turns`].
    ///
    /// # Errors
    /// One line naming the file and what is wrong with it (a missing column, a count that is
    /// not a number, `run.toml` that is not TOML); for numbers that cannot be a run's, the line
    /// and column too: wins above the games, wins and `lost_*` counts that do not add up to
    /// the games, a `mean_turns` that is not a number or below 0, a `win_rate`, `ci_low` or
    /// `ci_high` that is not a number in `0..=1`, a `win_rate` other than wins/games within the
    /// rounding of its decimals, or an interval that does not hold the `win_rate`.
    pub fn from_texts(
        summary_csv: &str,
        run_toml: &str,
        pairs_csv: Option<&str>,
        shown: &Path,
    ) -> Result<ReportView, String> {
        let summary_path = shown.join("summary.csv");
        let run_path = shown.join("run.toml");
        let summary = csv_table(crate::input::strip_bom(summary_csv), &summary_path)?;
        let run: toml::Table = toml::from_str(crate::input::strip_bom(run_toml))
            .map_err(|e| format!("{}: not TOML: {}", run_path.display(), e.message()))?;
        let h = &summary.header;
        let col = |name: &str| {
            h.iter()
                .position(|c| c == name)
                .ok_or_else(|| format!("{}: no column '{name}'", summary_path.display()))
        };
        let (c_strategy, c_games, c_wins, c_turns) = (
            col("strategy")?,
            col("games")?,
            col("wins")?,
            col("mean_turns")?,
        );
        let axes: Vec<String> = h[c_strategy + 1..c_games].to_vec();
        let lost_cols: Vec<usize> = (0..h.len())
            .filter(|&i| h[i].starts_with("lost_"))
            .collect();
        let loss_causes = lost_cols
            .iter()
            .map(|&i| h[i]["lost_".len()..].to_string())
            .collect();
        let mut cells = Vec::new();
        for (r, row) in summary.rows.iter().enumerate() {
            let line = r + 2;
            let int = |c: usize| {
                row.get(c)
                    .and_then(|v| v.parse::<u64>().ok())
                    .ok_or_else(|| {
                        format!(
                            "{}:{line}: column '{}' is not a count",
                            summary_path.display(),
                            h[c]
                        )
                    })
            };
            let mut lost = Vec::new();
            for &c in &lost_cols {
                lost.push(int(c)?);
            }
            let (games, wins) = (int(c_games)?, int(c_wins)?);
            let wrong = |c: usize, what: String| {
                format!(
                    "{}:{line}: column '{}' {what}",
                    summary_path.display(),
                    h[c]
                )
            };
            if wins > games {
                return Err(wrong(
                    c_wins,
                    format!("is {wins}, more than the {games} games"),
                ));
            }
            let losses: u128 = lost.iter().map(|&n| u128::from(n)).sum();
            if let Some(&c) = lost_cols.last()
                && u128::from(wins) + losses != u128::from(games)
            {
                return Err(wrong(
                    c,
                    format!(
                        "brings the wins and losses to {}, not the {games} games (each game is \
                         won or lost to one cause)",
                        u128::from(wins) + losses
                    ),
                ));
            }
            let mean_turns = number(row, c_turns, &wrong)?;
            if mean_turns < 0.0 {
                return Err(wrong(c_turns, format!("is {mean_turns}, below 0")));
            }
            check_rates(row, h, games, wins, &wrong)?;
            cells.push(CellView {
                strategy: row[c_strategy].clone(),
                values: row[c_strategy + 1..c_games].to_vec(),
                games,
                wins,
                lost,
                mean_turns,
                turns: None,
            });
        }
        let first = summary.rows.first();
        let field = |c: &str| {
            first
                .and_then(|r| h.iter().position(|x| x == c).map(|i| r[i].clone()))
                .unwrap_or_default()
        };
        let experiment_table = run.get("experiment").and_then(|v| v.as_table());
        let name_of = |key: &str| {
            experiment_table
                .and_then(|t| t.get(key))
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let mut strategies: Vec<String> = experiment_table
            .and_then(|t| t.get("strategies"))
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        for cell in &cells {
            if !strategies.contains(&cell.strategy) {
                strategies.push(cell.strategy.clone());
            }
        }
        let ladder = experiment_table
            .and_then(|t| t.get("ladder"))
            .and_then(|l| match l {
                toml::Value::Table(t) => t.get("strategies").and_then(|v| v.as_array()),
                toml::Value::Array(a) => Some(a),
                _ => None,
            })
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect::<Vec<_>>()
            })
            .filter(|l| !l.is_empty());
        let strategy_toml = strategies
            .iter()
            .map(|s| {
                let key = super::experiment::key(s);
                (s.clone(), toml_part(run_toml, &format!("strategies.{key}")))
            })
            .collect();
        let pairs = match pairs_csv {
            Some(text) => Some(csv_table(
                crate::input::strip_bom(text),
                &shown.join("pairs.csv"),
            )?),
            None => None,
        };
        Ok(ReportView {
            experiment: name_of("name").unwrap_or_else(|| field("experiment")),
            game: name_of("game").unwrap_or_else(|| field("game")),
            commit: run
                .get("run")
                .and_then(|r| r.get("commit"))
                .and_then(|c| c.as_str())
                .unwrap_or("unknown")
                .to_string(),
            axes,
            strategies,
            loss_causes,
            cells,
            summary,
            experiment_toml: toml_part(run_toml, "experiment"),
            strategy_toml,
            pairs,
            ladder,
        })
    }

    /// The view of a report just run (before or after it is written): its `summary.csv`,
    /// `run.toml` and `pairs.csv` texts, with the turn histograms from the report's totals.
    pub fn from_report(report: &Report) -> ReportView {
        let pairs = report.pairs_csv();
        let mut view = ReportView::from_texts(
            &report.summary_csv(),
            &report.run_toml(),
            pairs.as_deref(),
            Path::new(""),
        )
        .expect("sololab's own summary.csv and run.toml are readable");
        if let Some(h) = report_turn_histograms(report) {
            view.set_turns(h);
        }
        view
    }

    /// Reads the view of report folder `dir`: `summary.csv`, `run.toml`, `pairs.csv` when
    /// present, and the turn histograms from `turns.csv`, or else from `games.csv`, when
    /// present.
    ///
    /// # Errors
    /// One line naming the file that cannot be read or is not as sololab writes it.
    pub fn from_folder(dir: &Path) -> Result<ReportView, String> {
        let read = |name: &str| {
            let path = dir.join(name);
            crate::input::read_text(&path).map_err(|e| e.at(&path.display().to_string()))
        };
        let summary = read("summary.csv")?;
        let run = read("run.toml")?;
        let pairs = if dir.join("pairs.csv").is_file() {
            Some(read("pairs.csv")?)
        } else {
            None
        };
        let mut view = ReportView::from_texts(&summary, &run, pairs.as_deref(), dir)?;
        let turns = dir.join(TURNS_CSV);
        let games = dir.join("games.csv");
        if turns.is_file() {
            let text = read(TURNS_CSV)?;
            let h = turn_histograms_from_turns_csv(&text, view.cells.len(), &turns)?;
            view.set_turns(h);
        } else if games.is_file() {
            let file = std::fs::File::open(&games)
                .map_err(|e| format!("{}: cannot read: {e}", games.display()))?;
            let h = turn_histograms_from_games_csv(file, view.cells.len(), &games)?;
            view.set_turns(h);
        }
        Ok(view)
    }

    /// Sets each cell's turn histogram (`histograms[cell][turns]` = games); ignored unless
    /// there is one per cell.
    pub fn set_turns(&mut self, histograms: Vec<Vec<u64>>) {
        if histograms.len() == self.cells.len() {
            for (cell, h) in self.cells.iter_mut().zip(histograms) {
                cell.turns = Some(h);
            }
        }
    }

    /// The first 10 characters of the commit (all of it when shorter, with `-dirty` kept).
    pub fn short_commit(&self) -> String {
        let (hash, dirty) = match self.commit.strip_suffix("-dirty") {
            Some(h) => (h, "-dirty"),
            None => (self.commit.as_str(), ""),
        };
        let short: String = hash.chars().take(10).collect();
        format!("{short}{dirty}")
    }

    /// Games per cell: `N games` when every cell has `N`, else `N-M games`.
    pub fn games_per_cell(&self) -> String {
        let min = self.cells.iter().map(|c| c.games).min().unwrap_or(0);
        let max = self.cells.iter().map(|c| c.games).max().unwrap_or(0);
        if min == max {
            format!("{min} games")
        } else {
            format!("{min}-{max} games")
        }
    }

    /// The values of axis `a`, in the order of the cells.
    pub fn axis_values(&self, a: usize) -> Vec<String> {
        let mut values: Vec<String> = Vec::new();
        for cell in &self.cells {
            if !values.contains(&cell.values[a]) {
                values.push(cell.values[a].clone());
            }
        }
        values
    }

    /// Wins and games of `strategy` summed over its cells (with axis `a` at `value`, when
    /// given).
    pub fn pooled(&self, strategy: &str, at: Option<(usize, &str)>) -> (u64, u64) {
        self.cells
            .iter()
            .filter(|c| c.strategy == strategy && at.is_none_or(|(a, v)| c.values[a] == v))
            .fold((0, 0), |(w, g), c| (w + c.wins, g + c.games))
    }

    /// A cell's setup values as `axis=value, ...` (`default setup` without sweep axes).
    pub fn setup_label(&self, cell: &CellView) -> String {
        if self.axes.is_empty() {
            return "default setup".into();
        }
        self.axes
            .iter()
            .zip(&cell.values)
            .map(|(a, v)| format!("{a}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A cell's label: its strategy, then its setup values.
    pub fn cell_label(&self, cell: &CellView) -> String {
        if self.axes.is_empty() {
            cell.strategy.clone()
        } else {
            format!("{} · {}", cell.strategy, self.setup_label(cell))
        }
    }

    /// The distinct setup cells (sweep value combinations), in the cells' order.
    pub fn setup_labels(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for cell in &self.cells {
            let l = self.setup_label(cell);
            if !out.contains(&l) {
                out.push(l);
            }
        }
        out
    }

    /// Neighbouring ladder levels whose Wilson 95% intervals overlap, per setup cell, as
    /// `a–b at SETUP` texts.
    pub fn ladder_overlaps(&self) -> Vec<String> {
        let Some(ladder) = &self.ladder else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for setup in self.setup_labels() {
            let interval = |s: &String| {
                self.cells
                    .iter()
                    .find(|c| c.strategy == *s && self.setup_label(c) == setup)
                    .map(|c| wilson(c.wins, c.games, Z95))
            };
            for pair in ladder.windows(2) {
                if let (Some(a), Some(b)) = (interval(&pair[0]), interval(&pair[1]))
                    && a.0 <= b.1
                    && b.0 <= a.1
                {
                    out.push(format!("{}–{} at {setup}", pair[0], pair[1]));
                }
            }
        }
        out
    }
}

/// The turn histograms of a report in memory, one per cell: the exact counts the runner keeps
/// in every cell's [`Totals::turn_histogram`](super::Totals), else (a report put together
/// without them) from its kept game rows; `None` when it has neither.
fn report_turn_histograms(report: &Report) -> Option<Vec<Vec<u64>>> {
    let exact = report
        .cells
        .iter()
        .all(|c| c.totals.turn_histogram.iter().sum::<u64>() == c.totals.games);
    if exact && report.total_games() > 0 {
        return Some(
            report
                .cells
                .iter()
                .map(|c| c.totals.turn_histogram.clone())
                .collect(),
        );
    }
    let rows = report.rows.as_ref()?;
    let mut h = vec![Vec::new(); report.cells.len()];
    for r in rows {
        let v: &mut Vec<u64> = &mut h[r.cell];
        let t = r.turns as usize;
        if v.len() <= t {
            v.resize(t + 1, 0);
        }
        v[t] += 1;
    }
    Some(h)
}

/// A [`RowSink`](super::RowSink) that counts each cell's games per number of turns (the turn
/// histograms of the page) and hands the rows on to `inner` (a streamed `games.csv`).
pub struct TurnCounter<S> {
    inner: S,
    histograms: Vec<Vec<u64>>,
}

impl<S> TurnCounter<S> {
    /// Counts for a report of `cells` cells, passing rows on to `inner`.
    pub fn new(inner: S, cells: usize) -> TurnCounter<S> {
        TurnCounter {
            inner,
            histograms: vec![Vec::new(); cells],
        }
    }

    /// The inner sink and the histograms (`[cell][turns]` = games).
    pub fn into_parts(self) -> (S, Vec<Vec<u64>>) {
        (self.inner, self.histograms)
    }
}

impl<S: super::RowSink> super::RowSink for TurnCounter<S> {
    fn rows(&mut self, rows: &[super::GameRow]) -> std::io::Result<()> {
        for r in rows {
            if let Some(v) = self.histograms.get_mut(r.cell) {
                let t = r.turns as usize;
                if v.len() <= t {
                    v.resize(t + 1, 0);
                }
                v[t] += 1;
            }
        }
        self.inner.rows(rows)
    }
}

/// Turn histograms per cell from a `turns.csv` ([`Report::turns_csv`]: columns `cell`,
/// `turns` and `games`).
///
/// # Errors
/// One line naming `shown` and the line when a row's cell, turns or games is not a number,
/// the cell is not a row of `summary.csv`, or the turns are more than 100000.
pub fn turn_histograms_from_turns_csv(
    text: &str,
    cells: usize,
    shown: &Path,
) -> Result<Vec<Vec<u64>>, String> {
    let table = csv_table(crate::input::strip_bom(text), shown)?;
    let col = |name: &str| {
        table
            .header
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| format!("{}: no column '{name}'", shown.display()))
    };
    let (c_cell, c_turns, c_games) = (col("cell")?, col("turns")?, col("games")?);
    let mut h = vec![Vec::new(); cells];
    for (r, row) in table.rows.iter().enumerate() {
        let line = r + 2;
        let num = |c: usize| row.get(c).and_then(|v| v.parse::<u64>().ok());
        let (Some(cell), Some(turns), Some(games)) = (num(c_cell), num(c_turns), num(c_games))
        else {
            return Err(format!(
                "{}:{line}: 'cell', 'turns' and 'games' must be counts",
                shown.display()
            ));
        };
        let Some(v) = usize::try_from(cell).ok().and_then(|c| h.get_mut(c)) else {
            return Err(format!(
                "{}:{line}: cell {cell} is not a row of summary.csv",
                shown.display()
            ));
        };
        if turns > 100_000 {
            return Err(format!(
                "{}:{line}: {turns} turns is more than a report's 100000",
                shown.display()
            ));
        }
        let t = turns as usize;
        if v.len() <= t {
            v.resize(t + 1, 0);
        }
        v[t] += games;
    }
    Ok(h)
}

/// Turn histograms per cell from a `games.csv` (columns `cell` and `turns`), streamed.
///
/// # Errors
/// One line naming `shown` and the line when a row's cell or turns is not a number or the
/// cell is out of range.
pub fn turn_histograms_from_games_csv<R: Read>(
    input: R,
    cells: usize,
    shown: &Path,
) -> Result<Vec<Vec<u64>>, String> {
    let mut reader = csv::Reader::from_reader(input);
    let header = reader
        .headers()
        .map_err(|e| format!("{}: {e}", shown.display()))?
        .clone();
    let col = |name: &str| {
        header
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| format!("{}: no column '{name}'", shown.display()))
    };
    let (c_cell, c_turns) = (col("cell")?, col("turns")?);
    let mut h = vec![Vec::new(); cells];
    let mut record = csv::StringRecord::new();
    let mut line = 1;
    while reader
        .read_record(&mut record)
        .map_err(|e| format!("{}: {e}", shown.display()))?
    {
        line += 1;
        let cell = record.get(c_cell).and_then(|v| v.parse::<usize>().ok());
        let turns = record.get(c_turns).and_then(|v| v.parse::<usize>().ok());
        let (Some(cell), Some(turns)) = (cell, turns) else {
            return Err(format!(
                "{}:{line}: 'cell' and 'turns' must be counts",
                shown.display()
            ));
        };
        let Some(v) = h.get_mut(cell) else {
            return Err(format!(
                "{}:{line}: cell {cell} is not a row of summary.csv",
                shown.display()
            ));
        };
        if turns > 100_000 {
            return Err(format!(
                "{}:{line}: {turns} turns is more than a report's 100000",
                shown.display()
            ));
        }
        if v.len() <= turns {
            v.resize(turns + 1, 0);
        }
        v[turns] += 1;
    }
    Ok(h)
}

/// Escapes `&`, `<`, `>` and `"` for HTML text and attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

pub(super) const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #ccc}\
figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{color:#444;margin-top:.3em}\
table{border-collapse:collapse;font-size:.85em;display:block;overflow-x:auto}\
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right;white-space:nowrap}\
th{background:#f3f3f3}td.t{text-align:left}pre{background:#f7f7f7;padding:.8em;overflow-x:auto}\
.note{color:#555}";

pub(super) fn table_html(id: &str, table: &Table, text_columns: usize) -> String {
    let mut s = format!("<table id=\"{id}\">\n<thead><tr>");
    for h in &table.header {
        s.push_str(&format!("<th>{}</th>", escape(h)));
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in &table.rows {
        s.push_str("<tr>");
        for (i, v) in row.iter().enumerate() {
            if i < text_columns {
                s.push_str(&format!("<td class=\"t\">{}</td>", escape(v)));
            } else {
                s.push_str(&format!("<td>{}</td>", escape(v)));
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n");
    s
}

/// The page (`report.html`) of `view` with its `charts` inline.
pub fn page_html(view: &ReportView, charts: &[Chart]) -> String {
    let mut s = String::new();
    let title = format!(
        "{} ({}) — sololab report, commit {}, {} per cell",
        view.experiment,
        view.game,
        view.short_commit(),
        view.games_per_cell()
    );
    s.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    ));
    s.push_str(&format!(
        "<h1>{}</h1>\n<p>Experiment <b>{}</b> on the game <b>{}</b>: {}, {} per cell, \
         built from commit <code>{}</code>. Every number is in <a href=\"summary.csv\">\
         summary.csv</a>; how the run was made is in <a href=\"run.toml\">run.toml</a>.</p>\n",
        escape(&view.experiment),
        escape(&view.experiment),
        escape(&view.game),
        crate::lab::count(view.cells.len() as u64, "cell"),
        view.games_per_cell(),
        escape(&view.commit)
    ));
    s.push_str("<h2>Charts</h2>\n");
    for chart in charts {
        let id = chart.file.trim_end_matches(".svg");
        s.push_str(&format!(
            "<figure class=\"chart\" id=\"{}\">\n<h3>{}</h3>\n{}\n<figcaption>{} \
             (<a href=\"{}\">{}</a>)</figcaption>\n</figure>\n",
            escape(id),
            escape(&chart.heading),
            chart.svg.trim_end(),
            escape(&chart.caption),
            escape(&chart.file),
            escape(&chart.file)
        ));
    }
    if let Some(pairs) = &view.pairs {
        s.push_str(
            "<h2>Paired comparisons</h2>\n<p>Game <i>i</i> of every cell is played with the \
             same seeds (common random numbers), so each cell is compared with the \
             <code>[compare]</code> baseline game by game: the difference in win rate with its \
             95% interval for paired proportions, and how many games pairing saved against an \
             unpaired comparison of the same games (from <a href=\"pairs.csv\">pairs.csv</a>).\
             </p>\n",
        );
        let text_columns = pairs
            .header
            .iter()
            .position(|h| h == "games" || h.starts_with("both") || h.starts_with("diff"))
            .unwrap_or(1);
        s.push_str(&table_html("pairs", pairs, text_columns));
    }
    s.push_str(
        "<h2>Metrics</h2>\n<p>One row per cell: games, wins, the win rate and its Wilson 95% \
         interval, the mean turns, the games lost to each cause and the mean of each of the \
         game's end-of-game metrics (summary.csv).</p>\n",
    );
    let metrics = Table {
        header: view.summary.header[2..].to_vec(),
        rows: view.summary.rows.iter().map(|r| r[2..].to_vec()).collect(),
    };
    s.push_str(&table_html("metrics", &metrics, 1 + view.axes.len()));
    s.push_str(&format!(
        "<h2>The experiment as run</h2>\n<pre id=\"experiment\">{}</pre>\n",
        escape(&view.experiment_toml)
    ));
    s.push_str(
        "<h2>Strategies</h2>\n<p>Each strategy's origin (its file, or built in) and its \
         definition as loaded for this run.</p>\n",
    );
    for (name, text) in &view.strategy_toml {
        s.push_str(&format!(
            "<h3 class=\"strategy\">{}</h3>\n<pre>{}</pre>\n",
            escape(name),
            escape(text)
        ));
    }
    s.push_str("</body>\n</html>\n");
    s
}

/// The files of the page of a report whose view is `view` (its charts and `report.html`), for
/// [`ReportDir::open`]: the same names [`page_files`] writes.
pub fn page_file_names(view: &ReportView) -> Vec<String> {
    let mut files = chart_files(&view.axes, view.ladder.is_some());
    files.push(PAGE.to_string());
    files
}

/// The page's files: each chart's SVG and `report.html`, as (name, contents).
///
/// # Errors
/// A message when plotting fails (a plotting bug).
pub fn page_files(view: &ReportView) -> Result<Vec<(String, String)>, String> {
    let charts = charts(view)?;
    let mut files: Vec<(String, String)> = charts
        .iter()
        .map(|c| (c.file.clone(), c.svg.clone()))
        .collect();
    files.push((PAGE.to_string(), page_html(view, &charts)));
    Ok(files)
}

/// Writes the page of `view` into report folder `dir` (before its commit).
///
/// # Errors
/// [`ReportError::Write`] naming the file (or the page when plotting fails).
pub fn write_page(view: &ReportView, dir: &mut ReportDir) -> Result<(), ReportError> {
    let files = page_files(view).map_err(|e| ReportError::Write {
        path: dir.path().join(PAGE),
        source: std::io::Error::other(e),
    })?;
    for (name, contents) in files {
        dir.write(&name, &contents)?;
    }
    Ok(())
}

/// The files of report folder `dir` as its marker lists them (or, for a report from before
/// the marker, those of `summary.csv`, `run.toml` and `games.csv`, or `strength.csv` and
/// `strength.svg`, it holds).
fn listed_files(dir: &Path) -> Vec<String> {
    match std::fs::read_to_string(dir.join(MARKER)) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(str::to_string)
            .collect(),
        Err(_) => super::report_dir::LEGACY_FILES
            .iter()
            .chain(super::report_dir::LEGACY_STRENGTH_FILES)
            .filter(|f| dir.join(f).is_file())
            .map(|f| f.to_string())
            .collect(),
    }
}

/// Whether `name` is a file of a report page (rewritten by [`rewrite_page`]).
fn is_page_file(name: &str) -> bool {
    name == PAGE || name.ends_with(".svg")
}

/// `sololab report DIR`: rebuilds the page of report folder `dir` from its files and writes
/// it there as one unit with the report's other files (through [`ReportDir`]: locked, staged,
/// swapped in at once; the previous page's files are replaced). Returns the files written.
///
/// # Errors
/// One line: a file that cannot be read or parsed (nothing is written then), or the folder's
/// [`ReportError`] (locked, not a report, cannot write).
pub fn rewrite_page(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if !dir.is_dir() {
        return Err(format!("{}: not a report folder", dir.display()));
    }
    let Some(kind) = FolderKind::of(dir) else {
        return Err(format!(
            "{}: not a report folder (it holds no summary.csv, sensitivity.csv, probes.csv \
             or strength.csv)",
            dir.display()
        ));
    };
    if kind == FolderKind::Shard {
        return Err(format!(
            "{}: a shard's folder (partial.toml), which has no page; combine all the shards \
             with `sololab merge DIR... --out DIR`, which writes the report and its page",
            dir.display()
        ));
    }
    // A run's page is report.html and its charts; another kind's is report.html alone (its
    // chart is the command's own file, kept).
    let files = match kind {
        FolderKind::Run => page_files(&ReportView::from_folder(dir)?)?,
        _ => vec![(PAGE.to_string(), folder_page_from_dir(kind, dir)?)],
    };
    let is_page_file = |name: &str| match kind {
        FolderKind::Run => is_page_file(name),
        _ => name == PAGE,
    };
    // A file the marker lists but the folder lacks (a large games.csv left out of version
    // control) is dropped from the new marker: the page does not need it.
    let kept: Vec<String> = listed_files(dir)
        .into_iter()
        .filter(|f| !is_page_file(f) && dir.join(f).is_file())
        .collect();
    let mut names: Vec<&str> = kept.iter().map(String::as_str).collect();
    names.extend(files.iter().map(|(n, _)| n.as_str()));
    let mut out = ReportDir::open(dir, &names).map_err(|e| e.to_string())?;
    // The kept files are copied byte for byte into the new report.
    for name in &kept {
        let from = dir.join(name);
        let mut input = std::fs::File::open(&from)
            .map_err(|e| format!("{}: cannot read: {e}", from.display()))?;
        let mut file = out.create(name).map_err(|e| e.to_string())?;
        std::io::copy(&mut input, &mut file)
            .map_err(|e| format!("{}: cannot copy: {e}", from.display()))?;
        file.finish().map_err(|e| e.to_string())?;
    }
    for (name, contents) in &files {
        out.write(name, contents).map_err(|e| e.to_string())?;
    }
    let written = out.commit().map_err(|e| e.to_string())?;
    Ok(written
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_page_file)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SUMMARY: &str = "experiment,game,strategy,ruins,games,wins,win_rate,ci_low,ci_high,mean_turns,lost_mechs_destroyed,lost_ruins_exhausted,mean_x\n\
        lad,rift,random,2,100,10,0.1000,0.0552,0.1744,4.0,80,10,1.0\n\
        lad,rift,random,3,100,20,0.2000,0.1334,0.2888,4.0,70,10,1.0\n\
        lad,rift,greedy,2,100,60,0.6000,0.5020,0.6906,5.0,40,0,1.0\n\
        lad,rift,greedy,3,100,25,0.2500,0.1755,0.3430,5.0,75,0,1.0\n";
    const RUN: &str = "# header\n[run]\ncommit = \"0123456789abcdef-dirty\"\nwall_s = 1.5\n\n\
        [experiment]\nname = \"lad\"\ngame = \"rift\"\nstrategies = [\"random\", \"greedy\"]\n\n\
        [experiment.sweep]\nruins = [2, 3]\n\n[experiment.ladder]\nstrategies = [\"random\", \"greedy\"]\n\n\
        [strategies.random]\norigin = \"built in\"\nkind = \"random\"\n\n\
        [strategies.greedy]\norigin = \"strategies/greedy.toml\"\nkind = \"greedy\"\n\n\
        [strategies.greedy.weights.rift]\nmech_hp = 2.0\n";

    fn view() -> ReportView {
        ReportView::from_texts(SUMMARY, RUN, None, Path::new("r")).unwrap()
    }

    #[test]
    fn the_view_reads_cells_axes_causes_and_the_ladder() {
        let v = view();
        assert_eq!(v.axes, ["ruins"]);
        assert_eq!(v.loss_causes, ["mechs_destroyed", "ruins_exhausted"]);
        assert_eq!(v.strategies, ["random", "greedy"]);
        assert_eq!(v.cells.len(), 4);
        assert_eq!(
            (v.cells[2].wins, v.cells[2].lost.clone()),
            (60, vec![40, 0])
        );
        assert_eq!(
            v.ladder.as_deref(),
            Some(&["random".to_string(), "greedy".into()][..])
        );
        assert_eq!(v.short_commit(), "0123456789-dirty");
        assert_eq!(v.games_per_cell(), "100 games");
        assert_eq!(v.pooled("greedy", None), (85, 200));
        assert_eq!(v.pooled("greedy", Some((0, "3"))), (25, 100));
        // random 20% (13.2-29.1%) and greedy 25% (17.5-34.3%) overlap at ruins=3 only.
        assert_eq!(v.ladder_overlaps(), ["random–greedy at ruins=3"]);
        assert!(
            v.strategy_toml[1]
                .1
                .contains("[strategies.greedy.weights.rift]")
        );
        assert!(!v.experiment_toml.contains("wall_s"));
        assert!(v.experiment_toml.contains("[experiment.ladder]"));
    }

    #[test]
    fn a_broken_summary_is_one_line_naming_the_file_and_line() {
        let bad = SUMMARY.replace("100,60", "100,sixty");
        let e = ReportView::from_texts(&bad, RUN, None, Path::new("r")).unwrap_err();
        assert_eq!(e, "r/summary.csv:4: column 'wins' is not a count");
        let e = ReportView::from_texts("a,b\n", RUN, None, Path::new("r")).unwrap_err();
        assert_eq!(e, "r/summary.csv: no column 'strategy'");
        let e = ReportView::from_texts(SUMMARY, "[run", None, Path::new("r")).unwrap_err();
        assert!(e.starts_with("r/run.toml: not TOML"), "{e}");
    }

    #[test]
    fn a_summary_whose_counts_or_rates_disagree_is_refused_at_its_line_and_column() {
        // Line 4 is `lad,rift,greedy,2,100,60,0.6000,0.5020,0.6906,5.0,40,0,1.0`.
        let read = |from: &str, to: &str| {
            assert_eq!(SUMMARY.matches(from).count(), 1, "{from}");
            ReportView::from_texts(&SUMMARY.replace(from, to), RUN, None, Path::new("r"))
        };
        let refused = |from: &str, to: &str| read(from, to).unwrap_err();
        let at = |column: &str, what: &str| format!("r/summary.csv:4: column '{column}' {what}");
        assert_eq!(
            refused(",100,60,", ",100,160,"),
            at("wins", "is 160, more than the 100 games")
        );
        assert_eq!(
            refused(",100,60,", ",100,-60,"),
            at("wins", "is not a count")
        );
        assert_eq!(
            refused(",5.0,40,0,", ",5.0,-40,0,"),
            at("lost_mechs_destroyed", "is not a count")
        );
        assert_eq!(
            refused(",5.0,40,0,", ",5.0,30,0,"),
            at(
                "lost_ruins_exhausted",
                "brings the wins and losses to 90, not the 100 games (each game is won or lost \
                 to one cause)"
            )
        );
        for bad in ["NaN", "inf", "x", ""] {
            assert_eq!(
                refused(",0.6000,", &format!(",{bad},")),
                at("win_rate", &format!("is '{bad}', not a number"))
            );
        }
        assert_eq!(
            refused(",0.6000,", ",1.5,"),
            at("win_rate", "is 1.5, outside 0..=1")
        );
        assert_eq!(
            refused(",0.6000,", ",0.6100,"),
            at("win_rate", "is 0.6100, but wins/games is 60/100 = 0.6000")
        );
        assert_eq!(
            refused(",0.6000,", ",0.60006,"),
            at("win_rate", "is 0.60006, but wins/games is 60/100 = 0.6000")
        );
        assert_eq!(
            refused(",0.5020,0.6906,", ",0.6020,0.6906,"),
            at("ci_low", "is 0.602, above the win_rate 0.6")
        );
        assert_eq!(
            refused(",0.5020,0.6906,", ",0.5020,0.5906,"),
            at("ci_high", "is 0.5906, below the win_rate 0.6")
        );
        assert_eq!(
            refused(",0.5020,0.6906,", ",-0.1,0.6906,"),
            at("ci_low", "is -0.1, outside 0..=1")
        );
        assert_eq!(
            refused(",0.5020,0.6906,", ",0.5020,1.2,"),
            at("ci_high", "is 1.2, outside 0..=1")
        );
        assert_eq!(
            refused(",0.6906,5.0,", ",0.6906,NaN,"),
            at("mean_turns", "is 'NaN', not a number")
        );
        assert_eq!(
            refused(",0.6906,5.0,", ",0.6906,-5.0,"),
            at("mean_turns", "is -5, below 0")
        );
        // A rate within the rounding of the decimals written is the rate: 0.6 and 6e-1 are 60%.
        for rate in ["0.6", "0.60000", "6e-1", "60e-2"] {
            let v = read(",0.6000,", &format!(",{rate},")).unwrap();
            assert_eq!(v.cells[2].wins, 60, "{rate}");
        }
        // One game in three is 0.3333 to 4 decimals, 0.333 to 3, but not 0.3334.
        let third = |rate: &str| {
            read(
                ",100,60,0.6000,0.5020,0.6906,5.0,40,",
                &format!(",3,1,{rate},0.0615,0.7923,5.0,2,"),
            )
        };
        assert_eq!(third("0.3333").unwrap().cells[2].wins, 1);
        assert_eq!(third("0.333").unwrap().cells[2].wins, 1);
        assert_eq!(
            third("0.3334").unwrap_err(),
            at("win_rate", "is 0.3334, but wins/games is 1/3 = 0.3333")
        );
    }

    #[test]
    fn the_page_holds_every_chart_the_table_and_the_strategies() {
        let v = view();
        let files = page_files(&v).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "win-rate-by-ruins.svg",
                "outcomes.svg",
                "turns.svg",
                "ladder.svg",
                PAGE
            ]
        );
        assert_eq!(page_file_names(&v), names);
        let page = &files.last().unwrap().1;
        assert_eq!(page.matches("<svg").count(), 4);
        assert_eq!(page.matches("<figcaption>").count(), 4);
        let table = &page[page.find("<table id=\"metrics\">").unwrap()..];
        let body = &table[..table.find("</tbody>").unwrap()];
        assert_eq!(body.matches("<tr>").count(), 1 + 4);
        assert!(page.contains("<h3 class=\"strategy\">greedy</h3>"));
        assert!(page.contains("random–greedy at ruins=3"));
        // Self-contained: nothing is fetched (no script, stylesheet link or image source).
        assert!(!page.contains("src=") && !page.contains("<link") && !page.contains("<script"));
        // Each chart's title names the experiment, game, commit and games per cell; the
        // legend names every strategy.
        let win = &files[0].1;
        assert!(
            win.contains("lad (rift), commit 0123456789-dirty, 100 games per cell"),
            "{win}"
        );
        assert!(
            win.contains(">\nrandom\n<") && win.contains(">\ngreedy\n<"),
            "{win}"
        );
        // Without pairs.csv there is no paired section; with it, its rows are shown.
        assert!(!page.contains("Paired comparisons"));
        let pairs = "strategy,ruins,diff\ngreedy,3,0.05\n";
        let with = ReportView::from_texts(SUMMARY, RUN, Some(pairs), Path::new("r")).unwrap();
        let page = page_files(&with).unwrap().pop().unwrap().1;
        assert!(page.contains("Paired comparisons") && page.contains("<td>0.05</td>"));
    }

    #[test]
    fn the_page_is_the_same_bytes_every_time_and_without_machine_numbers() {
        let a = page_files(&view()).unwrap();
        let other_machine = RUN.replace("wall_s = 1.5", "wall_s = 99.0");
        let b = page_files(
            &ReportView::from_texts(SUMMARY, &other_machine, None, Path::new("r")).unwrap(),
        )
        .unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn turn_histograms_come_from_games_csv() {
        let games = "cell,strategy,ruins,index,result,cause,turns\n0,random,2,0,won,,3\n\
                     0,random,2,1,lost,x,3\n1,random,3,0,won,,1\n";
        let h = turn_histograms_from_games_csv(games.as_bytes(), 2, Path::new("g.csv")).unwrap();
        assert_eq!(h, vec![vec![0, 0, 0, 2], vec![0, 1]]);
        let e =
            turn_histograms_from_games_csv(games.as_bytes(), 1, Path::new("g.csv")).unwrap_err();
        assert_eq!(e, "g.csv:4: cell 1 is not a row of summary.csv");
        let mut v = view();
        v.set_turns(vec![vec![0, 1, 2]; 4]);
        let turns = &charts(&v).unwrap()[2];
        assert_eq!(turns.file, "turns.svg");
        assert!(turns.caption.starts_with("The distribution of game length"));
    }

    #[test]
    fn escape_escapes_markup() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
