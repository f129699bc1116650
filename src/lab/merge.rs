//! `sololab merge`: the partial reports of a run's shards combined into the report of the
//! whole run. Every number of a partial is an integer sum, so the sums of the shards are the
//! sums of the unsharded run and `summary.csv`, `pairs.csv` and `run.toml`'s description of
//! what ran are byte-identical to it (`run.toml`'s `[run]` table says `threads`, the most any
//! shard used, and `wall_s`, the shards' summed wall-clock time).
//!
//! Partials are refused, with one line naming the shard's folder and what differs, when they
//! are of different code versions, games, experiments, strategy definitions or content files
//! (their recorded bytes), of different
//! splits (`K/N` with another `N`), when a shard is given twice or missing, or when a file is
//! not a partial.

use std::path::{Path, PathBuf};

use super::experiment::Experiment;
use super::partial::Partial;
use super::report::{CellReport, Report, ReportError, Totals};
use super::report_dir::ReportDir;
use super::runner::Shard;
use crate::game::{AxisValue, Game};
use crate::games::GameKind;

/// The file of a shard's folder that holds its partial report.
pub const PARTIAL_FILE: &str = "partial.toml";

/// The merged report and the definition text its `run.toml` records.
#[derive(Debug)]
pub struct Merged {
    /// The whole run's report (`strategies` carry names only: `run.toml` takes the
    /// shards' recorded definitions, [`Merged::definition`]).
    pub report: Report,
    /// [`Report::definition_toml`] as the shards recorded it.
    pub definition: String,
    /// The number of shards.
    pub shards: u64,
}

/// Reads `DIR/partial.toml` of every folder in `dirs` and combines them.
///
/// # Errors
/// One line naming the folder (or file) and what is wrong (see the module documentation).
pub fn merge_partials(dirs: &[PathBuf]) -> Result<Merged, String> {
    if dirs.is_empty() {
        return Err("merge: give the shards' folders".into());
    }
    let mut partials: Vec<(PathBuf, Shard, Partial)> = Vec::new();
    for dir in dirs {
        let file = dir.join(PARTIAL_FILE);
        let text = crate::input::read_text(&file).map_err(|e| match e {
            crate::input::ReadError::Io(e) => format!(
                "{}: cannot read: {e} (not a shard's folder?)",
                file.display()
            ),
            not_utf8 => not_utf8.at(&file.display().to_string()),
        })?;
        let partial = Partial::parse(&text, &file)?;
        let shard = Shard::parse(&partial.identity.shard)
            .map_err(|e| format!("{}: shard {e}", file.display()))?;
        partials.push((file, shard, partial));
    }
    let (first_file, first_shard, first) = &partials[0];
    for (file, shard, p) in &partials[1..] {
        if let Some(what) = first.identity.difference(&p.identity) {
            return Err(format!(
                "{}: shard {shard} has {what} than {} (shard {first_shard})",
                file.display(),
                first_file.display()
            ));
        }
        if shard.count != first_shard.count {
            return Err(format!(
                "{}: shard {shard} is of a split in {}, {} (shard {first_shard}) of a split in {}",
                file.display(),
                shard.count,
                first_file.display(),
                first_shard.count
            ));
        }
    }
    let n = first_shard.count;
    let mut seen: Vec<Option<&Path>> = vec![None; n as usize];
    for (file, shard, _) in &partials {
        if let Some(other) = seen[shard.index as usize] {
            return Err(format!(
                "{}: shard {shard} is given twice (also {})",
                file.display(),
                other.display()
            ));
        }
        seen[shard.index as usize] = Some(file);
    }
    let missing: Vec<String> = (0..n)
        .filter(|&k| seen[k as usize].is_none())
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard {} {} missing: merge needs all {n} shards of {}",
            missing.join(", "),
            if missing.len() == 1 { "is" } else { "are" },
            first_file.display()
        ));
    }

    let identity = &first.identity;
    let shown = first_file.display().to_string();
    let experiment = Experiment::parse(&identity.experiment, &shown)
        .map_err(|e| format!("{shown}: its experiment: {e}"))?;
    let kind = GameKind::from_name(&identity.game).map_err(|e| format!("{shown}: {e}"))?;
    let mut report = recorded_report(kind, experiment);
    let (causes, metrics) = (report.loss_causes.len(), report.metric_names.len());
    for (file, shard, p) in &partials {
        if p.cells.len() != report.cells.len() {
            return Err(format!(
                "{}: shard {shard} has {} cells, its experiment {}",
                file.display(),
                p.cells.len(),
                report.cells.len()
            ));
        }
        for (c, record) in p.cells.iter().enumerate() {
            let t = record.totals(causes, metrics).ok_or_else(|| {
                format!(
                    "{}: shard {shard}: the totals of cell {c} do not add up",
                    file.display()
                )
            })?;
            report.cells[c].totals.add(&t);
        }
    }
    report.threads = partials
        .iter()
        .map(|p| p.2.threads as usize)
        .max()
        .unwrap_or(0);
    report.wall_s = partials.iter().map(|p| p.2.wall_s).sum();
    Ok(Merged {
        report,
        definition: identity.definition.clone(),
        shards: n,
    })
}

/// The report of a run of `experiment` (as a partial or a work area records it) on game `kind`
/// with no game played yet: its cells in plan order ([`expand_cells`]), every total zero, no
/// strategy definitions (the record holds them). What `merge` adds the shards' totals to and
/// `status` a work area's chunks to; built without any strategy file or policy.
pub(crate) fn recorded_report(kind: GameKind, experiment: Experiment) -> Report {
    let (game, causes, metrics) = crate::with_game!(kind, G => (
        G::NAME,
        G::LOSS_CAUSES.to_vec(),
        G::METRIC_NAMES.to_vec(),
    ));
    Report {
        axes: experiment.sweep.iter().map(|(a, _)| a.clone()).collect(),
        strategies: experiment
            .strategies
            .iter()
            .map(|s| (s.clone(), None))
            .collect(),
        game,
        cells: expand_cells(&experiment)
            .into_iter()
            .map(|(strategy, values)| CellReport {
                strategy,
                values,
                totals: Totals::new(causes.len(), metrics.len()),
            })
            .collect(),
        loss_causes: causes,
        metric_names: metrics,
        rows: None,
        buffered_rows: 0,
        threads: 0,
        wall_s: 0.0,
        experiment,
    }
}

/// The cells of `experiment` in plan order: strategy first, then the sweep values with the
/// first axis slowest (as [`Plan::new`](super::Plan::new) orders them).
fn expand_cells(experiment: &Experiment) -> Vec<(String, Vec<AxisValue>)> {
    let mut combos: Vec<Vec<AxisValue>> = vec![Vec::new()];
    for (_, values) in &experiment.sweep {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(v.clone());
                    c
                })
            })
            .collect();
    }
    experiment
        .strategies
        .iter()
        .flat_map(|s| combos.iter().map(move |c| (s.clone(), c.clone())))
        .collect()
}

/// Writes the merged report into `dir` (opened with
/// [`report_files_of`](super::report_files_of)) as one unit: `summary.csv`, `run.toml` (with
/// the shards' definition), `turns.csv`, `pairs.csv` with a baseline and `ladder.csv` with a
/// ladder.
///
/// # Errors
/// As [`ReportDir::write`] and [`ReportDir::commit`].
pub fn commit_merged(merged: &Merged, mut dir: ReportDir) -> Result<Vec<PathBuf>, ReportError> {
    let report = &merged.report;
    dir.write("summary.csv", &report.summary_csv())?;
    dir.write("run.toml", &report.run_toml_with(&merged.definition))?;
    if let Some(csv) = report.pairs_csv() {
        dir.write("pairs.csv", &csv)?;
    }
    if let Some(csv) = report.turns_csv() {
        dir.write(super::report::TURNS_CSV, &csv)?;
    }
    if let Some(csv) = super::ladder_csv(report) {
        dir.write("ladder.csv", &csv)?;
    }
    dir.commit()
}
