//! Partial reports: the exact integer aggregates of part of a run (a shard, `--shard K/N`) with
//! what it ran, as `partial.toml`; and the same totals for the chunks of the work area
//! (`--resume`). Everything is integers (sums and counts), so partials add up to the very
//! numbers of the whole run, and [`merge`](super::merge) gives its bytes.
//!
//! `partial.toml` holds: `format` ([`PARTIAL_FORMAT`]), `version` and `commit` (the code that
//! ran), `game`, `shard` (`K/N`), `experiment` (the experiment as run, in its file format),
//! `definition` (`run.toml`'s `[experiment]` and `[strategies.*]` tables, compared byte for
//! byte by `merge`), `threads` and `wall_s` (not part of the numbers), and one `[[cells]]`
//! table per cell in plan order with the cell's [`Totals`]: `games`, `wins`, `turns`, `lost`
//! (per loss cause), `metrics` (sums per metric), `turn_histogram` and, with a baseline,
//! `paired = [both, only_baseline, only_cell, neither]`.

use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::report::{BUILD_COMMIT, PairedCounts, Report, Totals};
use super::runner::{Chunk, Shard};
use crate::input;

/// The `format` line of `partial.toml` and of the work area's files.
pub const PARTIAL_FORMAT: &str = "sololab-partial-1";

/// One cell's totals as written (see the module documentation).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TotalsRecord {
    /// [`Totals::games`].
    pub games: u64,
    /// [`Totals::wins`].
    pub wins: u64,
    /// [`Totals::turns`].
    pub turns: u64,
    /// [`Totals::lost`].
    pub lost: Vec<u64>,
    /// [`Totals::metrics`].
    pub metrics: Vec<i64>,
    /// [`Totals::turn_histogram`].
    pub turn_histogram: Vec<u64>,
    /// [`Totals::paired`] as `[both, only_baseline, only_cell, neither]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paired: Option<[u64; 4]>,
}

impl From<&Totals> for TotalsRecord {
    fn from(t: &Totals) -> TotalsRecord {
        TotalsRecord {
            games: t.games,
            wins: t.wins,
            turns: t.turns,
            lost: t.lost.clone(),
            metrics: t.metrics.clone(),
            turn_histogram: t.turn_histogram.clone(),
            paired: t
                .paired
                .map(|p| [p.both, p.only_baseline, p.only_cell, p.neither]),
        }
    }
}

impl TotalsRecord {
    /// The totals, when the record has the game's shape (`causes` loss causes and `metrics`
    /// metrics, a histogram that sums to `games` and whose turns sum to `turns`, wins and
    /// losses that add up, metric sums within `2^32` a game), every sum taken without
    /// overflow: so records that pass can be added up ([`Totals::add`]) for any number of
    /// games a run can play without overflowing either.
    pub fn totals(&self, causes: usize, metrics: usize) -> Option<Totals> {
        let sum = |v: &[u64]| v.iter().try_fold(0u64, |a, &b| a.checked_add(b));
        let histogram_turns = self
            .turn_histogram
            .iter()
            .enumerate()
            .try_fold(0u64, |a, (t, &n)| a.checked_add((t as u64).checked_mul(n)?));
        let consistent = self.lost.len() == causes
            && self.metrics.len() == metrics
            && sum(&self.turn_histogram) == Some(self.games)
            && sum(&self.lost).and_then(|l| l.checked_add(self.wins)) == Some(self.games)
            && histogram_turns == Some(self.turns)
            && self
                .metrics
                .iter()
                .all(|m| m.unsigned_abs() <= self.games.saturating_mul(1 << 32))
            && self.turn_histogram.last() != Some(&0)
            // Paired counts, when kept, count every game of the cell once, and the cell's
            // wins are the games it won with the baseline and without it.
            && self.paired.is_none_or(|p| {
                p.iter()
                    .try_fold(0u64, |a, &b| a.checked_add(b))
                    .is_some_and(|n| n == self.games)
                    && p[0].checked_add(p[2]) == Some(self.wins)
            });
        consistent.then(|| Totals {
            games: self.games,
            wins: self.wins,
            turns: self.turns,
            lost: self.lost.clone(),
            metrics: self.metrics.clone(),
            turn_histogram: self.turn_histogram.clone(),
            paired: self
                .paired
                .map(|[both, only_baseline, only_cell, neither]| PairedCounts {
                    both,
                    only_baseline,
                    only_cell,
                    neither,
                }),
        })
    }
}

/// What a partial (or a work area) ran: compared field by field before partials are merged or
/// a run resumed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RunIdentity {
    /// [`PARTIAL_FORMAT`].
    pub format: String,
    /// The crate version that ran.
    pub version: String,
    /// [`BUILD_COMMIT`] of the binary that ran.
    pub commit: String,
    /// The game's registry name.
    pub game: String,
    /// `K/N`.
    pub shard: String,
    /// The experiment as run, in its file format ([`Experiment::to_toml`]).
    ///
    /// [`Experiment::to_toml`]: super::Experiment::to_toml
    pub experiment: String,
    /// [`Report::definition_toml`]: the experiment and the strategies' definitions.
    pub definition: String,
    /// [`content_fingerprint`] of the content files the experiment names: a run whose files
    /// changed is another run, though its experiment text is the same.
    #[serde(default)]
    pub content: String,
}

/// One line per content file the experiment names (the `content` axis in `[setup]`,
/// `[sweep]` or the baseline, other than `builtin`), in name order without repeats:
/// `PATH fnv1a64=HEX` of the file's bytes, or `PATH unreadable` when it cannot be read (the
/// run then fails on it anyway), where `PATH` is the name as the experiment file writes it
/// ([`Experiment::as_written`](super::Experiment::as_written)), so the line does not depend on
/// the folder the run started from. Empty when the experiment names none.
pub fn content_fingerprint(experiment: &super::Experiment) -> String {
    let axis = crate::game::CONTENT_AXIS.name;
    let mut paths: Vec<String> = Vec::new();
    let mut take = |v: &crate::game::AxisValue| {
        if let crate::game::AxisValue::Name(p) = v
            && p != crate::game::CONTENT_AXIS.default
        {
            paths.push(p.clone());
        }
    };
    for (k, v) in &experiment.setup {
        if k == axis {
            take(v);
        }
    }
    for (k, vs) in &experiment.sweep {
        if k == axis {
            vs.iter().for_each(&mut take);
        }
    }
    for (k, v) in experiment.baseline.iter().flatten() {
        if k == axis {
            take(v);
        }
    }
    paths.sort_unstable_by(|a, b| {
        (experiment.written_name(a), a).cmp(&(experiment.written_name(b), b))
    });
    paths.dedup();
    let mut out = String::new();
    for p in paths {
        let shown = experiment.written_name(&p);
        match std::fs::read(&p) {
            Ok(bytes) => {
                let mut h: u64 = 0xcbf2_9ce4_8422_2325;
                for b in bytes {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
                }
                out.push_str(&format!("{shown} fnv1a64={h:016x}\n"));
            }
            Err(_) => out.push_str(&format!("{shown} unreadable\n")),
        }
    }
    out
}

impl RunIdentity {
    /// The identity of `shard` of a run whose report shape is `report` (a
    /// [`blank_report`](super::blank_report) before the run), with this binary's version.
    pub fn new(report: &Report, shard: Shard) -> RunIdentity {
        RunIdentity {
            format: PARTIAL_FORMAT.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: BUILD_COMMIT.to_string(),
            game: report.game.to_string(),
            shard: shard.to_string(),
            experiment: report.experiment.to_toml(),
            definition: report.definition_toml(),
            content: content_fingerprint(&report.experiment),
        }
    }

    /// The first difference from `other` that forbids combining the two, as `what differs`
    /// (`None` when they are of the same run, shards aside). The recorded experiment,
    /// definitions and content are compared line for line, so LF and CRLF line endings agree.
    pub fn difference(&self, other: &RunIdentity) -> Option<String> {
        if self.format != other.format {
            return Some(format!(
                "format '{}' instead of '{}'",
                other.format, self.format
            ));
        }
        if (&self.version, &self.commit) != (&other.version, &other.commit) {
            return Some(format!(
                "code version {} (commit {}) instead of {} (commit {})",
                other.version, other.commit, self.version, self.commit
            ));
        }
        if self.game != other.game {
            return Some(format!("game '{}' instead of '{}'", other.game, self.game));
        }
        if !same_lines(&self.experiment, &other.experiment) {
            return Some(format!(
                "another experiment ({})",
                first_difference(&self.experiment, &other.experiment)
            ));
        }
        if !same_lines(&self.definition, &other.definition) {
            return Some(format!(
                "other strategy definitions ({})",
                first_difference(&self.definition, &other.definition)
            ));
        }
        if !same_lines(&self.content, &other.content) {
            return Some(format!(
                "other content files ({})",
                first_difference(&self.content, &other.content)
            ));
        }
        None
    }

    /// [`difference`](Self::difference), and then a different shard: what forbids resuming
    /// one run's work area with another (a shard's chunks are its own positions).
    pub fn resume_difference(&self, other: &RunIdentity) -> Option<String> {
        self.difference(other).or_else(|| {
            (self.shard != other.shard)
                .then(|| format!("shard {} instead of {}", other.shard, self.shard))
        })
    }
}

/// Whether two recorded texts say the same line for line: a file whose line endings were
/// turned into CRLF (an editor, a checkout with `core.autocrlf`) is still of the same run.
fn same_lines(ours: &str, theirs: &str) -> bool {
    ours.lines().eq(theirs.lines())
}

/// `line N: 'theirs' instead of 'ours'` for the first line where two texts differ.
fn first_difference(ours: &str, theirs: &str) -> String {
    let (mut a, mut b) = (ours.lines(), theirs.lines());
    let mut n = 1;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (x, y) => {
                return format!(
                    "line {n}: '{}' instead of '{}'",
                    y.unwrap_or("(end)"),
                    x.unwrap_or("(end)")
                );
            }
        }
    }
}

/// `partial.toml`: a shard's identity, timing and per-cell totals.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Partial {
    /// What ran.
    #[serde(flatten)]
    pub identity: RunIdentity,
    /// Worker threads (not part of the numbers).
    pub threads: u64,
    /// Wall-clock seconds (not part of the numbers).
    pub wall_s: f64,
    /// Per cell, in plan order.
    pub cells: Vec<TotalsRecord>,
}

impl Partial {
    /// The partial of `report`, the result of shard `shard`.
    pub fn of(report: &Report, shard: Shard) -> Partial {
        Partial {
            identity: RunIdentity::new(report, shard),
            threads: report.threads as u64,
            wall_s: report.wall_s,
            cells: report
                .cells
                .iter()
                .map(|c| TotalsRecord::from(&c.totals))
                .collect(),
        }
    }

    /// The file's text.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).expect("partials are plain TOML values");
        format!(
            "# sololab partial report: exact totals of one shard; `sololab merge` combines \
             the shards.\n{body}"
        )
    }

    /// Reads `partial.toml` text (a leading byte-order mark is dropped); `shown` is the file,
    /// for messages.
    ///
    /// # Errors
    /// One line, `FILE:LINE:COLUMN: not a sololab partial report: ...` (`FILE: ...` when the
    /// TOML parser gives no place): the TOML or field error, a `wall_s` not in `0..=1e10`
    /// seconds (`MAX_WALL_S`: summed over shards it must stay finite) or `threads = 0`.
    pub fn parse(text: &str, shown: &Path) -> Result<Partial, String> {
        let text = input::strip_bom(text);
        let refuse = |span: Option<Range<usize>>, message: &str| {
            let place = match span {
                Some(s) => {
                    let (line, column) = input::line_column(text, s.start);
                    format!("{}:{line}:{column}", shown.display())
                }
                None => shown.display().to_string(),
            };
            format!("{place}: not a sololab partial report: {message}")
        };
        let p: Partial = toml::from_str(text).map_err(|e| {
            let message = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
            // A field missing from the top level has no place (an empty span at the start).
            let span = e.span().filter(|s| *s != (0..0) && *s != (0..text.len()));
            refuse(span, &message)
        })?;
        if !(0.0..=MAX_WALL_S).contains(&p.wall_s) {
            return Err(refuse(
                input::value_span(text, &["wall_s"]),
                &format!("wall_s = {}: not a number of seconds (0..=1e10)", p.wall_s),
            ));
        }
        // (No upper bound: with --threads 0 the pool takes RAYON_NUM_THREADS, uncapped.)
        if p.threads == 0 {
            return Err(refuse(
                input::value_span(text, &["threads"]),
                "threads = 0: a run plays on at least 1 thread",
            ));
        }
        Ok(p)
    }
}

/// The most seconds of play a partial or a chunk may record (about 317 years): summed over
/// any number of shards or chunks the total stays finite and prints in a line.
pub const MAX_WALL_S: f64 = 1e10;

/// A work-area chunk file: identity, positions and the totals of the cells that played.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChunkRecord {
    /// What ran.
    #[serde(flatten)]
    pub identity: RunIdentity,
    /// [`Chunk::from`].
    pub from: u64,
    /// [`Chunk::to`].
    pub to: u64,
    /// [`Chunk::cells`].
    pub cells: Vec<u64>,
    /// [`Chunk::wall_s`] (0 when absent: files written before it).
    #[serde(default)]
    pub wall_s: f64,
    /// One per cell that played.
    pub totals: Vec<TotalsRecord>,
}

impl ChunkRecord {
    /// The record of `chunk` of the run `identity`.
    pub fn of(identity: &RunIdentity, chunk: &Chunk) -> ChunkRecord {
        ChunkRecord {
            identity: identity.clone(),
            from: chunk.from,
            to: chunk.to,
            cells: chunk.cells.iter().map(|&c| c as u64).collect(),
            wall_s: chunk.wall_s,
            totals: chunk.totals.iter().map(TotalsRecord::from).collect(),
        }
    }

    /// The chunk, when it is whole: positions `from < to`, cells in increasing order, one
    /// totals record per cell with the game's shape and `to - from` games (every cell of a
    /// chunk plays all its positions), and a `wall_s` in `0..=MAX_WALL_S` (1e10 seconds).
    pub fn chunk(&self, causes: usize, metrics: usize) -> Option<Chunk> {
        let whole = self.from < self.to
            && self.cells.windows(2).all(|w| w[0] < w[1])
            && self.totals.len() == self.cells.len()
            && self.totals.iter().all(|t| t.games == self.to - self.from)
            && (0.0..=MAX_WALL_S).contains(&self.wall_s);
        if !whole {
            return None;
        }
        let totals: Option<Vec<Totals>> = self
            .totals
            .iter()
            .map(|t| t.totals(causes, metrics))
            .collect();
        Some(Chunk {
            wall_s: self.wall_s,
            from: self.from,
            to: self.to,
            cells: self.cells.iter().map(|&c| c as usize).collect(),
            totals: totals?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A partial of no cells, as `sololab run --shard` writes it.
    fn partial_text() -> String {
        let s = |v: &str| v.to_string();
        Partial {
            identity: RunIdentity {
                format: s(PARTIAL_FORMAT),
                version: s("0.1.0"),
                commit: s("abc"),
                game: s("rift"),
                shard: s("0/2"),
                experiment: s("name = \"x\"\ngame = \"rift\"\n"),
                definition: s("[experiment]\nname = \"x\"\n"),
                content: String::new(),
            },
            threads: 2,
            wall_s: 1.5,
            cells: Vec::new(),
        }
        .to_toml()
    }

    #[test]
    fn a_malformed_partial_is_refused_at_its_line_and_column() {
        let text = partial_text();
        let shown = Path::new("p/partial.toml");
        let line_of = |key: &str| text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
        let (threads, wall) = (line_of("threads = "), line_of("wall_s = "));
        assert!(threads > 1 && wall > 1, "{text}");
        let refused = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            Partial::parse(&text.replace(from, to), shown).unwrap_err()
        };
        let at = |line: usize, column: usize| {
            format!("p/partial.toml:{line}:{column}: not a sololab partial report: ")
        };
        // A value of the wrong type, at the value.
        let e = refused("threads = 2", "threads = \"two\"");
        assert!(e.starts_with(&at(threads, 11)), "{e}");
        assert!(e.contains("invalid type") && !e.contains('\n'), "{e}");
        // A syntax error (no value), where the parser stopped.
        let e = refused("wall_s = 1.5", "wall_s = ");
        assert!(e.starts_with(&format!("p/partial.toml:{wall}:")), "{e}");
        // The checks of the values, at the value.
        assert_eq!(
            refused("wall_s = 1.5", "wall_s = nan"),
            format!(
                "{}wall_s = NaN: not a number of seconds (0..=1e10)",
                at(wall, 10)
            )
        );
        assert_eq!(
            refused("threads = 2", "threads = 0"),
            format!(
                "{}threads = 0: a run plays on at least 1 thread",
                at(threads, 11)
            )
        );
        // A field missing from the top level has no place but the file.
        let e = refused("game = \"rift\"\n", "");
        assert_eq!(
            e,
            "p/partial.toml: not a sololab partial report: missing field `game`"
        );
        // A byte-order mark is no error and not counted in columns.
        let bom = format!("\u{feff}{text}");
        assert_eq!(Partial::parse(&bom, shown).unwrap().threads, 2);
        let e = Partial::parse(&bom.replace("threads = 2", "threads = \"two\""), shown);
        assert!(e.unwrap_err().starts_with(&at(threads, 11)));
    }

    /// A chunk's `wall_s` is held to the same `0..=MAX_WALL_S` as a partial's (1e300 was
    /// taken, and `status` printed a 300-digit number of hours).
    #[test]
    fn a_chunk_records_a_bounded_play_time() {
        let mut t = Totals::new(0, 0);
        t.games = 2;
        t.wins = 2;
        t.turn_histogram = vec![0, 2];
        t.turns = 2;
        let record = |wall_s: f64| ChunkRecord {
            identity: Partial::parse(&partial_text(), Path::new("p"))
                .unwrap()
                .identity,
            from: 0,
            to: 2,
            cells: vec![0],
            wall_s,
            totals: vec![TotalsRecord::from(&t)],
        };
        for (wall_s, whole) in [
            (0.0, true),
            (MAX_WALL_S, true),
            (1e300, false),
            (-1.0, false),
            (f64::NAN, false),
        ] {
            assert_eq!(record(wall_s).chunk(0, 0).is_some(), whole, "{wall_s}");
        }
    }

    #[test]
    fn a_totals_record_adds_up_or_is_refused() {
        let mut t = Totals::new(1, 0);
        t.games = 3;
        t.wins = 2;
        t.lost = vec![1];
        t.turn_histogram = vec![0, 3];
        t.turns = 3;
        t.paired = Some(PairedCounts {
            both: 1,
            only_baseline: 0,
            only_cell: 1,
            neither: 1,
        });
        let good = TotalsRecord::from(&t);
        assert_eq!(good.totals(1, 0), Some(t.clone()));
        // The cell's 2 wins are both + only_cell: [2, 0, 0, 1] and [0, 1, 2, 0] are games
        // the baseline played otherwise.
        for paired in [[2, 0, 0, 1], [0, 1, 2, 0]] {
            let mut other = good.clone();
            other.paired = Some(paired);
            assert!(other.totals(1, 0).is_some(), "{paired:?}");
        }
        // Paired counts that miss a game, count one twice, or give the cell other wins than
        // its 2 ([1, 1, 0, 1]: 1).
        for paired in [
            [1, 0, 1, 0],
            [1, 1, 1, 1],
            [u64::MAX, 1, 1, 1],
            [1, 1, 0, 1],
        ] {
            let mut bad = good.clone();
            bad.paired = Some(paired);
            assert_eq!(bad.totals(1, 0), None, "{paired:?}");
        }
        // Wins and losses that do not add up to the games.
        let mut bad = good.clone();
        bad.wins = 1;
        assert_eq!(bad.totals(1, 0), None);
        // ... nor when the sum would wrap around (wins + losses = 3 modulo 2^64).
        let mut bad = good.clone();
        bad.wins = u64::MAX;
        bad.lost = vec![4];
        assert_eq!(bad.totals(1, 0), None);
        // A histogram that wraps to the games, or whose turns are not the turns played.
        let mut bad = good.clone();
        bad.turn_histogram = vec![u64::MAX, 4];
        assert_eq!(bad.totals(1, 0), None);
        let mut bad = good.clone();
        bad.turns = 4;
        assert_eq!(bad.totals(1, 0), None);
        // A metric sum beyond 2^32 a game.
        let mut m = t.clone();
        m.metrics = vec![3 << 32];
        let ok = TotalsRecord::from(&m);
        assert_eq!(ok.totals(1, 1), Some(m));
        let mut bad = ok.clone();
        bad.metrics = vec![(3 << 32) + 1];
        assert_eq!(bad.totals(1, 1), None);
        bad.metrics = vec![i64::MIN];
        assert_eq!(bad.totals(1, 1), None);
    }
}
