//! The work area of a run: its finished chunks on disk, so that an interrupted run (a signal,
//! a scheduler's time limit, a killed process) resumes without replaying them.
//!
//! The work area is the folder [`WORK`] inside the report folder (`results/<name>/.sololab-work/`),
//! created when a run without `--raw` finishes its first chunk (a run that fails before that
//! leaves nothing). It holds `identity.toml` (what runs: code version,
//! game, shard, experiment and strategy definitions, a [`RunIdentity`]) and one file per finished
//! chunk, `chunk-<from>-<to>.toml` (a [`ChunkRecord`]), each written to a temporary name and
//! renamed, so that a chunk file is whole or absent. The report folder's own files are not
//! touched: the previous report stays as it was until the finished run's report replaces it,
//! and that commit removes the work area with the previous report.
//!
//! A run into a folder whose work area exists needs `--resume` (else it is refused with one
//! line, so that no finished work is thrown away by mistake); `--resume` checks that the
//! identity is the same (else one line naming what differs) and takes every finished chunk
//! from the work area instead of playing it. Without a work area `--resume` starts afresh.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::partial::{ChunkRecord, RunIdentity};
use super::report_dir::WORK;
use super::runner::{Chunk, ChunkStore};

const IDENTITY: &str = "identity.toml";

/// A run's work area (see the module documentation).
#[derive(Debug)]
pub struct WorkArea {
    dir: PathBuf,
    identity: RunIdentity,
    saved: HashMap<(u64, u64), Chunk>,
    /// Whether the folder and its identity file exist (made with the first chunk saved).
    created: bool,
    /// Chunks taken from an interrupted run.
    pub resumed: usize,
}

impl WorkArea {
    /// The work area of report folder `out` (already opened and locked by
    /// [`ReportDir::open`](super::ReportDir::open)) for the run `identity`, whose game has
    /// `causes` loss causes and `metrics` metrics, whose plan has `cells` cells and whose shard
    /// plays positions `0..positions` of each cell. With `resume`, the finished chunks of an
    /// earlier run of the same identity are loaded.
    ///
    /// # Errors
    /// One line: a work area exists and `resume` is false; it is of another run; a chunk
    /// file is unreadable or not of this run (a cell or position outside the plan); the folder
    /// cannot be created or written.
    pub fn open(
        out: &Path,
        identity: RunIdentity,
        causes: usize,
        metrics: usize,
        cells: usize,
        positions: u64,
        resume: bool,
    ) -> Result<WorkArea, String> {
        let dir = out.join(WORK);
        let shown = dir.display();
        let mut area = WorkArea {
            dir: dir.clone(),
            identity,
            saved: HashMap::new(),
            created: false,
            resumed: 0,
        };
        if !dir.exists() {
            // Created with the first finished chunk: a run that fails before leaves nothing.
            return Ok(area);
        }
        // A folder without an identity or any chunk holds no finished game (a run killed
        // outright between creating it and writing its identity): nothing to resume or to
        // keep, so the run starts afresh, with or without --resume.
        let holds_work = dir.join(IDENTITY).exists()
            || std::fs::read_dir(&dir).map_or(true, |entries| {
                entries
                    .flatten()
                    .any(|e| e.file_name().to_string_lossy().starts_with("chunk-"))
            });
        if !holds_work && std::fs::remove_dir_all(&dir).is_ok() {
            return Ok(area);
        }
        area.created = true;
        if !resume {
            return Err(format!(
                "{shown}: an interrupted run's finished games are kept here; continue it with \
                 --resume, or remove this folder to start over"
            ));
        }
        let read_identity = std::fs::read_to_string(dir.join(IDENTITY))
            .map_err(|e| e.to_string())
            .and_then(|t| toml::from_str::<RunIdentity>(&t).map_err(|e| e.message().to_string()));
        let theirs = match read_identity {
            Ok(theirs) => theirs,
            Err(e) => {
                return Err(format!(
                    "{shown}/{IDENTITY}: cannot be read ({e}); remove {shown} to start over"
                ));
            }
        };
        if let Some(what) = area.identity.resume_difference(&theirs) {
            return Err(format!(
                "{shown}: the interrupted run had {what}; run it as it was, or remove {shown} \
                 to start over"
            ));
        }
        let hint = format!("; remove {shown} to start over");
        let shape = (causes, metrics, cells, positions);
        for chunk in read_chunks(&dir, &area.identity, shape, &hint)? {
            area.saved.insert((chunk.from, chunk.to), chunk);
        }
        Ok(area)
    }

    /// The work area's folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl ChunkStore for WorkArea {
    fn finished(&mut self, from: u64, to: u64) -> Option<Chunk> {
        let chunk = self.saved.remove(&(from, to))?;
        self.resumed += 1;
        Some(chunk)
    }

    fn save(&mut self, chunk: &Chunk) -> std::io::Result<()> {
        self.save_chunk(chunk)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", self.dir.display())))
    }
}

impl WorkArea {
    fn save_chunk(&mut self, chunk: &Chunk) -> std::io::Result<()> {
        if !self.created {
            match std::fs::create_dir(&self.dir) {
                Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => return Err(e),
                _ => {}
            }
            let text = toml::to_string(&self.identity).map_err(std::io::Error::other)?;
            write_whole(&self.dir.join(IDENTITY), &text)?;
            self.created = true;
        }
        let record = ChunkRecord::of(&self.identity, chunk);
        let text = toml::to_string(&record).map_err(std::io::Error::other)?;
        let name = format!("chunk-{:015}-{:015}.toml", chunk.from, chunk.to);
        write_whole(&self.dir.join(name), &text)
    }
}

/// Writes `path` whole: to a temporary name, synced, then renamed.
fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// What an interrupted (or running) run's work area holds so far: [`work_area_progress`].
#[derive(Debug)]
pub struct WorkProgress {
    /// The run's report shape with every finished chunk's totals added to its cells (cells
    /// that played no finished chunk have 0 games); `wall_s` is the chunks' summed play time.
    pub report: super::Report,
    /// The recorded identity: its `commit` is the binary that must resume it, its `shard`
    /// is `K/N`.
    pub identity: RunIdentity,
    /// Finished chunk files.
    pub chunks: usize,
    /// The games a cell plays in this shard at most (the experiment's cap, this shard's share).
    pub positions: u64,
}

impl WorkProgress {
    /// The games still to play before the run's report (summed over its cells; this shard's
    /// share): every cell's games up to the experiment's `games`, or, with a precision target,
    /// up to [`games_at_precision`](super::games_at_precision) of its win rate so far (an
    /// estimate).
    pub fn games_to_go(&self) -> u64 {
        let e = &self.report.experiment;
        let cap = self.positions;
        self.report
            .cells
            .iter()
            .map(|c| {
                let t = &c.totals;
                let end = match e.precision {
                    Some(p) => super::games_at_precision(t.wins, t.games, p, e.games, cap),
                    None => cap,
                };
                end.saturating_sub(t.games)
            })
            .sum()
    }
}

/// The finished chunks in work area `dir` of the run `identity` (whose game has `causes` loss
/// causes and `metrics` metrics, and whose shard plays positions `0..positions` of each cell),
/// in positions order.
///
/// # Errors
/// One line naming the file, followed by `hint`: the folder or a chunk file cannot be read, a
/// chunk is of another run ([`RunIdentity::resume_difference`]), its totals do not add up, it
/// holds positions past `positions`, or it shares positions with another chunk.
fn read_chunks(
    dir: &Path,
    identity: &RunIdentity,
    (causes, metrics, cells, positions): (usize, usize, usize, u64),
    hint: &str,
) -> Result<Vec<Chunk>, String> {
    let shown = dir.display();
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{shown}: {e}{hint}"))? {
        let name = entry
            .map_err(|e| format!("{shown}: {e}{hint}"))?
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.starts_with("chunk-") && name.ends_with(".toml") {
            names.push(name);
        }
    }
    names.sort();
    let mut chunks: Vec<(PathBuf, Chunk)> = Vec::with_capacity(names.len());
    let mut seen = std::collections::HashSet::new();
    for name in &names {
        let path = dir.join(name);
        let bad = |why: String| format!("{}: {why}{hint}", path.display());
        let text = crate::input::read_text(&path).map_err(|e| match e.line_column() {
            Some(_) => format!("{}{hint}", e.at(&path.display().to_string())),
            None => bad(e.to_string()),
        })?;
        let record: ChunkRecord =
            toml::from_str(&text).map_err(|e| bad(e.message().trim().to_string()))?;
        if let Some(what) = identity.resume_difference(&record.identity) {
            return Err(bad(format!("a chunk of another run ({what})")));
        }
        let chunk = record
            .chunk(causes, metrics)
            .ok_or_else(|| bad("totals that do not add up".into()))?;
        if !seen.insert((chunk.from, chunk.to)) {
            return Err(bad(format!(
                "a second chunk of positions {}..{}",
                chunk.from, chunk.to
            )));
        }
        if let Some(c) = chunk.cells.iter().find(|&&c| c >= cells) {
            return Err(bad(format!(
                "the chunk of positions {}..{} has cell {c}, not in the plan's {cells}",
                chunk.from, chunk.to
            )));
        }
        if chunk.to > positions {
            return Err(bad(format!(
                "positions {}..{} of a run of {positions} a cell",
                chunk.from, chunk.to
            )));
        }
        chunks.push((path, chunk));
    }
    // Chunks are disjoint ranges of positions: one that overlaps another is not of this run.
    chunks.sort_by_key(|(_, c)| c.from);
    for pair in chunks.windows(2) {
        let ((_, a), (path, b)) = (&pair[0], &pair[1]);
        if b.from < a.to {
            return Err(format!(
                "{}: positions {}..{} overlap another chunk's {}..{}{hint}",
                path.display(),
                b.from,
                b.to,
                a.from,
                a.to
            ));
        }
    }
    Ok(chunks.into_iter().map(|(_, c)| c).collect())
}

/// The progress of the run whose report folder is `out`: its work area's identity and finished
/// chunks summed per cell, labelled by the experiment the identity records (so it needs no
/// experiment or strategy file, and works on a shard's folder or a copy of the work area).
/// The numbers are those of the games finished so far (positions `0..k` of each cell when
/// the chunks are contiguous), not the run's answer.
///
/// # Errors
/// One line: `out` has no work area, its identity or a chunk file is unreadable or of
/// another run, the identity names an unknown game, or its experiment does not plan or is of
/// another game than the identity's.
pub fn work_area_progress(out: &Path) -> Result<WorkProgress, String> {
    let dir = out.join(WORK);
    let shown = dir.display();
    if !out.is_dir() {
        let what = if out.exists() {
            "a file, not a report folder"
        } else {
            "no such folder"
        };
        return Err(format!("{}: {what}", out.display()));
    }
    if !dir.is_dir() {
        return Err(format!(
            "{}: no work area here (no run of this folder has finished a chunk, or its report is complete)",
            out.display()
        ));
    }
    // A work area without an identity or any chunk (a run killed outright before it wrote
    // them) holds no finished game: `WorkArea::open` starts afresh there.
    let empty = !dir.join(IDENTITY).exists()
        && std::fs::read_dir(&dir).is_ok_and(|entries| {
            !entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("chunk-"))
        });
    if empty {
        return Err(format!(
            "{shown}: holds no finished game (a run killed before its first chunk); a run here \
             starts afresh"
        ));
    }
    let identity: RunIdentity = std::fs::read_to_string(dir.join(IDENTITY))
        .map_err(|e| e.to_string())
        .and_then(|t| toml::from_str(&t).map_err(|e| e.message().trim().to_string()))
        .map_err(|e| format!("{shown}/{IDENTITY}: cannot be read ({e})"))?;
    let kind = crate::games::GameKind::from_name(&identity.game)
        .map_err(|e| format!("{shown}/{IDENTITY}: {e}"))?;
    let at = format!("{shown}/{IDENTITY}");
    // Lines and columns of an error count in the recorded experiment text, not in the file.
    let experiment =
        super::Experiment::parse(&identity.experiment, &format!("{at} (its experiment text)"))
            .map_err(|e| e.to_string())?;
    if experiment.game != identity.game {
        return Err(format!(
            "{at}: game {:?}, but its experiment is of game {:?}",
            identity.game, experiment.game
        ));
    }
    let mut report = super::merge::recorded_report(kind, experiment);
    let (causes, metrics) = (report.loss_causes.len(), report.metric_names.len());
    let shard = super::Shard::parse(&identity.shard)
        .map_err(|e| format!("{shown}/{IDENTITY}: shard {e}"))?;
    let positions = shard.games_of(report.experiment.games_cap());
    let shape = (causes, metrics, report.cells.len(), positions);
    let chunks = read_chunks(&dir, &identity, shape, "")?;
    for chunk in &chunks {
        for (&c, totals) in chunk.cells.iter().zip(&chunk.totals) {
            let cell = report.cells.get_mut(c).ok_or_else(|| {
                format!(
                    "{shown}: the chunk of positions {}..{} has cell {c}, not in the plan",
                    chunk.from, chunk.to
                )
            })?;
            cell.totals.add(totals);
        }
        report.wall_s += chunk.wall_s;
    }
    Ok(WorkProgress {
        report,
        identity,
        chunks: chunks.len(),
        positions,
    })
}
