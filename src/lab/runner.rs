//! The parallel runner: plays every game of every cell of a [`Plan`] on a rayon pool of its own
//! and aggregates the results as they come.
//!
//! Reproducibility rests on three rules (DESIGN.md, "Seeds and reproducibility"):
//! - game `i` of every cell draws from [`stream_rng`]`(seed, i, stream)` with separate streams
//!   for setup, chance and the policy, so no game's numbers depend on any other game;
//! - (cell, game) pairs are one flat parallel range (interleaved, so that every piece of it
//!   mixes all cells and costs about the same), and each game's result is folded into
//!   integer totals, whose sums do not depend on the order games finish or on the thread count;
//! - nothing prints from inside the parallel loop: progress is an atomic counter that the calling
//!   thread reads.
//!
//! With `raw` (one row per game, `games.csv`), games are played in chunks of [`RAW_CHUNK`] in
//! (cell, index) order, each chunk in parallel, and each chunk's rows are handed to a
//! [`RowSink`] in that order before the next chunk starts: memory stays bounded whatever the
//! number of games, and the rows come out the same for any thread count.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::plan::Plan;
use super::report::{CellReport, GameRow, GamesCsv, PairedCounts, Report, Totals};
use crate::game::{Game, Outcome, Stream, stream_rng};
use crate::policy::Policy;

/// The most worker threads a run may ask for (a thread count is not worth more than the cores,
/// and each thread reserves a stack).
pub const MAX_THREADS: usize = 1024;

/// Games per chunk of a `raw` run: the most game rows held in memory at once.
pub const RAW_CHUNK: usize = 4096;

/// Receives the rows of a `raw` run, in (cell, index) order, a chunk at a time.
pub trait RowSink: Send {
    /// The next rows.
    ///
    /// # Errors
    /// The sink's own (a file that cannot be written); the run then stops.
    fn rows(&mut self, rows: &[GameRow]) -> std::io::Result<()>;
}

/// Keeps the rows in memory.
impl RowSink for Vec<GameRow> {
    fn rows(&mut self, rows: &[GameRow]) -> std::io::Result<()> {
        self.extend_from_slice(rows);
        Ok(())
    }
}

impl<W: std::io::Write + Send> RowSink for GamesCsv<W> {
    fn rows(&mut self, rows: &[GameRow]) -> std::io::Result<()> {
        self.write_rows(rows)
    }
}

/// Why a run could not be carried out (the games themselves cannot fail).
#[derive(Debug)]
pub enum RunError {
    /// The worker threads could not be started (process or memory limits).
    Threads {
        /// Threads asked for (0: one per core).
        threads: usize,
        /// The system's reason.
        message: String,
    },
    /// The row sink failed (`games.csv` could not be written).
    Rows(std::io::Error),
    /// The chunk store failed (a finished chunk could not be saved in the work area).
    Store(std::io::Error),
    /// The options cannot be honoured exactly (such as `raw` with a precision target).
    Refused(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Threads {
                threads: 0,
                message,
            } => {
                write!(f, "cannot start the worker threads: {message}")
            }
            RunError::Threads {
                threads: 1,
                message,
            } => write!(f, "cannot start the worker thread: {message}"),
            RunError::Threads { threads, message } => {
                write!(f, "cannot start {threads} worker threads: {message}")
            }
            RunError::Rows(e) => write!(f, "cannot write the game rows: {e}"),
            RunError::Store(e) => write!(f, "cannot save a finished chunk: {e}"),
            RunError::Refused(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for RunError {}

/// The thread pool of a run, or a [`RunError::Threads`] when `built` failed.
///
/// # Errors
/// [`RunError::Threads`] with the builder's message.
pub fn thread_pool(
    built: Result<rayon::ThreadPool, rayon::ThreadPoolBuildError>,
    threads: usize,
) -> Result<rayon::ThreadPool, RunError> {
    built.map_err(|e| RunError::Threads {
        threads,
        message: e.to_string(),
    })
}

/// The worker pool of a run: [`RunOptions::threads`] capped at [`MAX_THREADS`] (`0`: rayon's
/// choice), threads named `sololab-<i>`; returns the capped count with it.
///
/// # Errors
/// [`RunError::Threads`] when the pool cannot be built.
fn run_pool(options: &RunOptions) -> Result<(usize, rayon::ThreadPool), RunError> {
    let threads = options.threads.min(MAX_THREADS);
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sololab-{i}"))
        .build();
    Ok((threads, thread_pool(built, threads)?))
}

/// How to run a plan; nothing here changes the numbers of a report.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads, at most [`MAX_THREADS`] (more are capped); `0` lets rayon choose
    /// (`RAYON_NUM_THREADS` or one per core).
    pub threads: usize,
    /// Keep one row per game for `games.csv`.
    pub raw: bool,
}

/// Receives progress while a run goes on. Called from the thread that started the run, never
/// from inside the parallel loop, about ten times a second.
pub trait Progress: Sync {
    /// `done` of `total` games are finished.
    fn update(&self, done: u64, total: u64);
    /// The run is over (called once, after the last update).
    fn finish(&self, _done: u64, _total: u64) {}
}

/// One progress line: games done, percent, games per second and the time left, which is
/// `unknown` until a game has finished (never an infinite or undefined number).
pub fn progress_line(done: u64, total: u64, elapsed_s: f64) -> String {
    progress_line_played(done, done, total, elapsed_s)
}

/// [`progress_line`] for a run whose `done` games include some it did not play (a resumed
/// run's kept chunks): the games per second and the time left count only the `played`
/// games of the `elapsed_s` seconds.
pub fn progress_line_played(done: u64, played: u64, total: u64, elapsed_s: f64) -> String {
    let rate = if elapsed_s > 0.0 {
        played as f64 / elapsed_s
    } else {
        0.0
    };
    let eta = if rate > 0.0 && rate.is_finite() {
        format!("{:.0} s", total.saturating_sub(done) as f64 / rate)
    } else {
        "unknown".to_string()
    };
    format!(
        "{done}/{total} games ({:.0}%), {rate:.0} games/s, ETA {eta}",
        100.0 * done as f64 / total.max(1) as f64
    )
}

/// Progress that goes nowhere.
pub struct NoProgress;

impl Progress for NoProgress {
    fn update(&self, _done: u64, _total: u64) {}
}

/// Plays one game from `setup` with `policy`: game `index` of an experiment seeded `seed`.
/// `legal` is a scratch buffer (its contents are overwritten). Returns the finished state.
///
/// # Panics
/// When the game does not end within [`Game::MAX_DECISIONS`] decisions (a bug in the game).
pub fn play_game<G: Game>(
    setup: &G::Setup,
    policy: &mut dyn Policy<G>,
    seed: u64,
    index: u64,
    legal: &mut Vec<G::Action>,
) -> G {
    let (state, _) = play_game_for(setup, policy, seed, index, legal, G::MAX_DECISIONS);
    assert!(
        state.outcome().is_some(),
        "{}: game {index} of seed {seed} did not end within {} decisions",
        G::NAME,
        G::MAX_DECISIONS
    );
    state
}

/// [`play_game`] for at most `limit` player decisions: returns the state (finished, or cut off
/// after `limit` decisions) and the decisions made (`0..=limit`). The same streams as
/// [`play_game`], so the first `limit` decisions of both are the same.
pub fn play_game_for<G: Game>(
    setup: &G::Setup,
    policy: &mut dyn Policy<G>,
    seed: u64,
    index: u64,
    legal: &mut Vec<G::Action>,
    limit: u32,
) -> (G, u32) {
    let mut state = G::new_game(setup, &mut stream_rng(seed, index, Stream::Setup));
    let mut chance = stream_rng(seed, index, Stream::Chance);
    let mut own = stream_rng(seed, index, Stream::Policy);
    let mut decisions = 0u32;
    while state.outcome().is_none() && decisions < limit {
        state.legal_actions(legal);
        let action = policy.choose_foreseeing(&state, legal, &mut own, &chance);
        state.apply(action, &mut chance);
        decisions += 1;
    }
    (state, decisions)
}

/// The per-task accumulator: integer totals per cell.
struct Acc {
    totals: Vec<Totals>,
}

impl Acc {
    fn new(cells: usize, causes: usize, metrics: usize) -> Acc {
        Acc {
            totals: vec![Totals::new(causes, metrics); cells],
        }
    }
}

/// One rayon task's state: its accumulator, its policies (built on first use) and buffers.
struct Worker<G: Game> {
    acc: Acc,
    policies: Vec<Option<Box<dyn Policy<G>>>>,
    legal: Vec<G::Action>,
    metrics: Vec<i64>,
}

/// Runs `plan` with `options` and no progress display. See
/// [`run_experiment_with_progress`].
///
/// # Panics
/// When the thread pool cannot be built, or a game or policy panics.
pub fn run_experiment<G: Game>(plan: &Plan<G>, options: &RunOptions) -> Report {
    run_experiment_with_progress(plan, options, &NoProgress)
}

/// Runs every game of every cell of `plan` (see [`try_run_experiment`]), keeping the rows in
/// [`Report::rows`] with `raw`.
///
/// # Panics
/// When the thread pool cannot be built, or a game or policy panics (the panic is passed on).
pub fn run_experiment_with_progress<G: Game>(
    plan: &Plan<G>,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Report {
    let mut rows = Vec::new();
    let mut report =
        try_run_experiment(plan, options, progress, &mut rows).unwrap_or_else(|e| panic!("{e}"));
    if options.raw {
        report.rows = Some(rows);
    }
    report
}

/// A report of `plan` with every cell's totals zero: the cells, axes and columns a run of the
/// plan will report (for [`GamesCsv::new`] before the run).
pub fn blank_report<G: Game>(plan: &Plan<G>) -> Report {
    let (causes, metrics) = (G::LOSS_CAUSES.len(), G::METRIC_NAMES.len());
    Report {
        experiment: plan.experiment.clone(),
        game: G::NAME,
        axes: plan.axes.clone(),
        strategies: plan
            .strategies
            .iter()
            .map(|s| (s.name.clone(), s.definition.clone()))
            .collect(),
        loss_causes: G::LOSS_CAUSES.to_vec(),
        metric_names: G::METRIC_NAMES.to_vec(),
        cells: plan
            .cells
            .iter()
            .map(|cell| CellReport {
                strategy: plan.strategies[cell.strategy].name.clone(),
                values: cell.values.clone(),
                totals: Totals::new(causes, metrics),
            })
            .collect(),
        rows: None,
        buffered_rows: 0,
        threads: 0,
        wall_s: 0.0,
    }
}

/// Runs every game of every cell of `plan` on a rayon pool of `options.threads` threads and
/// returns the report. With `options.raw`, every game's row goes to `sink`, in (cell, index)
/// order, [`RAW_CHUNK`] rows at most at a time (the report's `rows` stay `None`). The
/// report's numbers (everything but `threads`, `wall_s` and `buffered_rows`) and the rows
/// depend only on the plan, not on the thread count or scheduling.
///
/// # Errors
/// [`RunError::Threads`] when the worker threads cannot be started (before any game is
/// played), [`RunError::Rows`] when `sink` fails (the run stops there).
///
/// # Panics
/// When a game or policy panics (the panic is passed on).
pub fn try_run_experiment<G: Game>(
    plan: &Plan<G>,
    options: &RunOptions,
    progress: &dyn Progress,
    sink: &mut dyn RowSink,
) -> Result<Report, RunError> {
    if !options.raw {
        return try_run_shard(plan, options, Shard::WHOLE, progress, &mut NoStore);
    }
    if plan.experiment.precision.is_some() {
        return Err(RunError::Refused(
            "--raw cannot be combined with a precision target (games.csv is written in cell \
             order, before the batches are known)"
                .into(),
        ));
    }
    try_run_raw(plan, options, progress, sink)
}

fn try_run_raw<G: Game>(
    plan: &Plan<G>,
    options: &RunOptions,
    progress: &dyn Progress,
    sink: &mut dyn RowSink,
) -> Result<Report, RunError> {
    let start = Instant::now();
    let (threads, pool) = run_pool(options)?;
    let pool_threads = pool.current_num_threads();
    let seed = plan.experiment.seed;
    let total = plan.total_games();
    let (causes, metric_count) = (G::LOSS_CAUSES.len(), G::METRIC_NAMES.len());
    let cells = plan.cells.len();
    let games = plan.experiment.games;
    let done = AtomicU64::new(0);

    let new_worker = || Worker::<G> {
        acc: Acc::new(cells, causes, metric_count),
        policies: (0..plan.strategies.len()).map(|_| None).collect(),
        legal: Vec::with_capacity(64),
        metrics: vec![0; metric_count],
    };
    // Plays game `i` of cell `c` and records it in the worker's totals.
    let play_one = |w: &mut Worker<G>, c: usize, i: u64| -> (Outcome, u32) {
        let cell = &plan.cells[c];
        let policy = w.policies[cell.strategy]
            .get_or_insert_with(|| (plan.strategies[cell.strategy].factory)());
        let end = play_game::<G>(&cell.setup, policy.as_mut(), seed, i, &mut w.legal);
        let outcome = end.outcome().expect("play_game returns finished games");
        end.metrics(&mut w.metrics);
        w.acc.totals[c].record(outcome, end.turns(), &w.metrics);
        done.fetch_add(1, Ordering::Relaxed);
        (outcome, end.turns())
    };
    let total_len = usize::try_from(total).expect("the run fits in memory's index range");

    // Chunks in (cell, index) order, each played in parallel and handed to the sink before
    // the next.
    let run = || -> Result<(Vec<Totals>, usize), RunError> {
        let mut totals = vec![Totals::new(causes, metric_count); cells];
        // With a baseline: one bit per game (won), for the paired counts at the end.
        let baseline = plan.experiment.baseline_cell();
        let mut won = vec![
            0u64;
            if baseline.is_some() {
                total_len.div_ceil(64)
            } else {
                0
            }
        ];
        let mut chunk: Vec<GameRow> = Vec::with_capacity(RAW_CHUNK.min(total_len));
        let mut peak = 0;
        let mut from = 0;
        while from < total_len {
            let to = (from + RAW_CHUNK).min(total_len);
            chunk.clear();
            let chunk_max_len = (to - from).div_ceil(pool_threads * 4).max(1);
            pool.install(|| {
                (from..to)
                    .into_par_iter()
                    .with_max_len(chunk_max_len)
                    .map_init(new_worker, |w, k| {
                        let (c, i) = (k / games as usize, (k % games as usize) as u64);
                        let (outcome, turns) = play_one(w, c, i);
                        GameRow {
                            cell: c,
                            index: i,
                            outcome,
                            turns,
                            metrics: w.metrics.clone(),
                        }
                    })
                    .collect_into_vec(&mut chunk);
            });
            for row in &chunk {
                totals[row.cell].record(row.outcome, row.turns, &row.metrics);
                if baseline.is_some() && row.outcome == Outcome::Won {
                    let k = row.cell * games as usize + row.index as usize;
                    won[k / 64] |= 1 << (k % 64);
                }
            }
            peak = peak.max(chunk.len());
            sink.rows(&chunk).map_err(RunError::Rows)?;
            from = to;
        }
        if let Some(b) = baseline {
            let bit = |c: usize, i: usize| {
                let k = c * games as usize + i;
                won[k / 64] >> (k % 64) & 1 == 1
            };
            for (c, t) in totals.iter_mut().enumerate() {
                let mut pairs = PairedCounts::default();
                for i in 0..games as usize {
                    pairs.record(bit(b, i), bit(c, i));
                }
                t.paired = Some(pairs);
            }
        }
        Ok((totals, peak))
    };

    let result = drive(threads, progress, &done, total, run);
    let (totals, peak) = result?;
    progress.update(total, total);
    progress.finish(total, total);

    let mut report = blank_report(plan);
    for (cell, t) in report.cells.iter_mut().zip(totals) {
        cell.totals = t;
    }
    report.buffered_rows = peak;
    report.threads = pool_threads;
    report.wall_s = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Runs `run` on a thread of its own while the calling thread reports `done` of `total` to
/// `progress` about ten times a second; returns what `run` returned (a panic is passed on).
fn drive<R: Send>(
    threads: usize,
    progress: &dyn Progress,
    done: &AtomicU64,
    total: u64,
    run: impl FnOnce() -> Result<R, RunError> + Send,
) -> Result<R, RunError> {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let runner = std::thread::Builder::new()
            .name("sololab-run".into())
            .stack_size(1 << 20)
            .spawn_scoped(scope, move || {
                let result = run();
                // The receiver only goes away if the caller's thread panicked.
                let _ = tx.send(());
                result
            })
            .map_err(|e| RunError::Threads {
                threads,
                message: e.to_string(),
            })?;
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    progress.update(done.load(Ordering::Relaxed), total);
                }
            }
        }
        match runner.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Which share of every cell's games a run plays: the game indices `i` with
/// `i % count == index` (interleaved, so that every shard costs about the same and game `i`
/// of every cell is in the same shard, which keeps the paired counts exact). `0/1` is the
/// whole run. Written `K/N` on the command line, `K` 0-based (`0..N`), so that a Slurm array
/// task id or a Kubernetes completion index is the shard as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    /// `K`, in `0..count`.
    pub index: u64,
    /// `N`, at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// The most shards a run may be split into.
    pub const MAX_COUNT: u64 = 1_000_000;

    /// Reads `K/N` (`0 <= K < N <= `[`Shard::MAX_COUNT`]).
    ///
    /// # Errors
    /// A message saying what is wrong with `text`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not K/N with 0 <= K < N (K is 0-based)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k >= n {
            return Err(bad());
        }
        if n > Shard::MAX_COUNT {
            return Err(format!("'{text}': at most {} shards", Shard::MAX_COUNT));
        }
        Ok(Shard { index: k, count: n })
    }

    /// How many of the indices `0..games` are this shard's.
    pub fn games_of(&self, games: u64) -> u64 {
        if games > self.index {
            (games - self.index).div_ceil(self.count)
        } else {
            0
        }
    }

    /// The game index of this shard's `position`-th game.
    pub fn game_index(&self, position: u64) -> u64 {
        self.index + position * self.count
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Random games per chunk of a run without `raw` (all cells together): the unit of work saved
/// for `--resume`, and of the paired counts. A chunk plays positions `from..to` of every cell
/// still playing, [`Plan::chunk_positions`] positions at most: `CHUNK_GAMES / cells` for
/// random play, fewer for dearer strategies.
pub const CHUNK_GAMES: u64 = 4096;

/// The fewest games (all cells together) a chunk holds however dear its strategies: enough
/// for both threads of a small machine to stay busy to the chunk's end.
pub const CHUNK_MIN_GAMES: u64 = 64;

/// A finished chunk: the totals of the games at positions `from..to` of the shard (game
/// indices [`Shard::game_index`]) of each of `cells`, with their paired counts when the
/// experiment has a baseline and the baseline cell was among them.
#[derive(Clone, Debug, PartialEq)]
pub struct Chunk {
    /// Wall-clock seconds its play took (not part of the numbers; 0 for a chunk read from a
    /// work-area file written before this field): a resumed run's `wall_s` adds those of the
    /// chunks it takes from the work area, so its `games_per_s` counts every game against the
    /// time that played it.
    pub wall_s: f64,
    /// First position (inclusive).
    pub from: u64,
    /// Last position (exclusive).
    pub to: u64,
    /// The cells that played, in plan order (all of them unless a precision target stopped
    /// some).
    pub cells: Vec<usize>,
    /// One per entry of `cells`.
    pub totals: Vec<Totals>,
}

/// Where finished chunks go (the work area of `--resume`) and come from.
pub trait ChunkStore: Send {
    /// The chunk `from..to` saved by an earlier, interrupted run, if any.
    fn finished(&mut self, from: u64, to: u64) -> Option<Chunk>;
    /// Saves a chunk just played, before the next starts.
    ///
    /// # Errors
    /// The store's own; the run then stops.
    fn save(&mut self, chunk: &Chunk) -> std::io::Result<()>;
}

/// Keeps nothing.
pub struct NoStore;

impl ChunkStore for NoStore {
    fn finished(&mut self, _from: u64, _to: u64) -> Option<Chunk> {
        None
    }
    fn save(&mut self, _chunk: &Chunk) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether a cell's totals meet a precision target: the Wilson 95% half-width at most
/// `precision`.
pub fn meets_precision(totals: &Totals, precision: f64) -> bool {
    let (lo, hi) = totals.interval();
    totals.games > 0 && (hi - lo) / 2.0 <= precision
}

/// The games a cell of a precision run will have played when it stops, estimated from its
/// `wins` of `games` so far: the first batch end (a multiple of `batch`, or `cap`) past `games`
/// at which a cell with the same win rate meets `precision` ([`meets_precision`]), at most
/// `cap`; `games` itself when the cell meets it already (or has played `cap`). A cell with no
/// games is estimated at the rate 1/2, the one that needs the most. An estimate for planning
/// (`sololab status`), not what the run will do: the rate moves as games come in.
///
/// # Panics
/// When `batch` is 0.
pub fn games_at_precision(wins: u64, games: u64, precision: f64, batch: u64, cap: u64) -> u64 {
    assert!(batch > 0, "games_at_precision: a batch of 0 games");
    let at = |n: u64, w: u64| {
        let mut t = Totals::new(0, 0);
        t.games = n;
        t.wins = w;
        t
    };
    if games >= cap || meets_precision(&at(games, wins.min(games)), precision) {
        return games;
    }
    let rate = if games == 0 {
        0.5
    } else {
        wins.min(games) as f64 / games as f64
    };
    let meets = |n: u64| meets_precision(&at(n, (rate * n as f64).round() as u64), precision);
    // The half-width at a fixed rate falls as n grows: bisect over the batch ends after `games`.
    let end = |k: u64| (k.saturating_mul(batch)).min(cap);
    let (mut lo, mut hi) = (games / batch + 1, cap.div_ceil(batch));
    if !meets(end(hi)) {
        return cap;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if meets(end(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    end(lo)
}

/// The per-chunk accumulator: totals per playing cell and one bit per game (won) for the
/// paired counts.
struct ChunkAcc {
    totals: Vec<Totals>,
    won: Vec<u64>,
}

impl ChunkAcc {
    fn merge(mut self, other: ChunkAcc) -> ChunkAcc {
        for (a, b) in self.totals.iter_mut().zip(&other.totals) {
            a.add(b);
        }
        for (a, b) in self.won.iter_mut().zip(&other.won) {
            *a |= b;
        }
        self
    }
}

/// Runs shard `shard` of `plan` (without per-game rows) in chunks of positions, each played in
/// parallel over (cell, position) and folded into integer totals; after each chunk the paired
/// counts against the `[compare]` baseline come from one bit per game of the chunk, and the
/// chunk goes to `store` (a chunk the store already has is taken from it instead of played).
/// With a precision target, `games` is the batch size: batch `b` is positions
/// `b*games..min((b+1)*games, max_games)` of every cell whose Wilson half-width is still above
/// the target after the batches before it. The report's numbers depend only on the plan and
/// the shard.
///
/// # Errors
/// [`RunError::Threads`] as [`try_run_experiment`]; [`RunError::Store`] when `store` fails;
/// [`RunError::Refused`] for a precision target with a shard other than `0/1`.
///
/// # Panics
/// When a game or policy panics (the panic is passed on).
pub fn try_run_shard<G: Game>(
    plan: &Plan<G>,
    options: &RunOptions,
    shard: Shard,
    progress: &dyn Progress,
    store: &mut dyn ChunkStore,
) -> Result<Report, RunError> {
    let e = &plan.experiment;
    if e.precision.is_some() && shard != Shard::WHOLE {
        return Err(RunError::Refused(
            "--shard cannot be combined with a precision target (the batches depend on every \
             shard's results)"
                .into(),
        ));
    }
    let start = Instant::now();
    let (threads, pool) = run_pool(options)?;
    let pool_threads = pool.current_num_threads();
    let seed = e.seed;
    let (causes, metric_count) = (G::LOSS_CAUSES.len(), G::METRIC_NAMES.len());
    let cells = plan.cells.len();
    let cap = shard.games_of(e.games_cap());
    let total = cap * cells as u64;
    let baseline = e.baseline_cell();
    let chunk_len = plan.chunk_positions();
    let done = AtomicU64::new(0);
    // Wall-clock seconds of the chunks taken from the store, played by an earlier run.
    let mut resumed_s = 0.0f64;

    let run = || -> Result<Vec<Totals>, RunError> {
        let mut totals = vec![Totals::new(causes, metric_count); cells];
        if baseline.is_some() {
            for t in &mut totals {
                t.paired = Some(PairedCounts::default());
            }
        }
        let mut batch_from = 0u64;
        while batch_from < cap {
            let batch_to = match e.precision {
                Some(_) => (batch_from + e.games).min(cap),
                None => cap,
            };
            let active: Vec<usize> = (0..cells)
                .filter(|&c| match e.precision {
                    Some(p) => batch_from == 0 || !meets_precision(&totals[c], p),
                    None => true,
                })
                .collect();
            if active.is_empty() {
                break;
            }
            let mut from = batch_from;
            while from < batch_to {
                let to = (from + chunk_len).min(batch_to);
                let chunk = match store.finished(from, to) {
                    Some(chunk) if chunk.cells == active && chunk.totals.len() == active.len() => {
                        done.fetch_add((to - from) * active.len() as u64, Ordering::Relaxed);
                        resumed_s += chunk.wall_s;
                        chunk
                    }
                    _ => {
                        let started = Instant::now();
                        let mut chunk = play_chunk(
                            plan, &pool, shard, seed, &active, baseline, from, to, &done,
                        );
                        chunk.wall_s = started.elapsed().as_secs_f64();
                        store.save(&chunk).map_err(RunError::Store)?;
                        chunk
                    }
                };
                for (&c, t) in chunk.cells.iter().zip(&chunk.totals) {
                    totals[c].add(t);
                }
                from = to;
            }
            batch_from = batch_to;
        }
        Ok(totals)
    };
    let totals = drive(threads, progress, &done, total, run)?;
    let played = done.load(Ordering::Relaxed);
    progress.update(played, played);
    progress.finish(played, played);

    let mut report = blank_report(plan);
    for (cell, t) in report.cells.iter_mut().zip(totals) {
        cell.totals = t;
    }
    report.threads = pool_threads;
    report.wall_s = start.elapsed().as_secs_f64() + resumed_s;
    Ok(report)
}

/// Plays positions `from..to` of the shard for each of `active`, in parallel over (cell,
/// position) interleaved, and computes the chunk's paired counts.
#[allow(clippy::too_many_arguments)]
fn play_chunk<G: Game>(
    plan: &Plan<G>,
    pool: &rayon::ThreadPool,
    shard: Shard,
    seed: u64,
    active: &[usize],
    baseline: Option<usize>,
    from: u64,
    to: u64,
    done: &AtomicU64,
) -> Chunk {
    let (causes, metric_count) = (G::LOSS_CAUSES.len(), G::METRIC_NAMES.len());
    let na = active.len();
    let len = (to - from) as usize;
    let words = len.div_ceil(64);
    let base = baseline.and_then(|b| active.iter().position(|&c| c == b));
    let bits = if base.is_some() { na * words } else { 0 };
    let new_acc = || ChunkAcc {
        totals: vec![Totals::new(causes, metric_count); na],
        won: vec![0; bits],
    };
    let new_worker = || {
        (
            new_acc(),
            (0..plan.strategies.len())
                .map(|_| None)
                .collect::<Vec<Option<Box<dyn Policy<G>>>>>(),
            Vec::<G::Action>::with_capacity(64),
            vec![0i64; metric_count],
        )
    };
    let max_len = (na * len).div_ceil(pool.current_num_threads() * 8).max(1);
    let acc = pool.install(|| {
        (0..na * len)
            .into_par_iter()
            .with_max_len(max_len)
            .fold(new_worker, |mut w, k| {
                let (a, p) = (k % na, k / na);
                let cell = &plan.cells[active[a]];
                let policy = w.1[cell.strategy]
                    .get_or_insert_with(|| (plan.strategies[cell.strategy].factory)());
                let i = shard.game_index(from + p as u64);
                let end = play_game::<G>(&cell.setup, policy.as_mut(), seed, i, &mut w.2);
                let outcome = end.outcome().expect("play_game returns finished games");
                end.metrics(&mut w.3);
                w.0.totals[a].record(outcome, end.turns(), &w.3);
                if base.is_some() && outcome == Outcome::Won {
                    w.0.won[a * words + p / 64] |= 1 << (p % 64);
                }
                done.fetch_add(1, Ordering::Relaxed);
                w
            })
            .map(|w| w.0)
            .reduce(new_acc, ChunkAcc::merge)
    });
    let ChunkAcc { mut totals, won } = acc;
    if let Some(b) = base {
        let last = if len.is_multiple_of(64) {
            u64::MAX
        } else {
            (1u64 << (len % 64)) - 1
        };
        for (a, t) in totals.iter_mut().enumerate() {
            let mut pairs = PairedCounts::default();
            for w in 0..words {
                let mask = if w + 1 == words { last } else { u64::MAX };
                let (x, y) = (won[b * words + w], won[a * words + w]);
                pairs.both += u64::from((x & y).count_ones());
                pairs.only_baseline += u64::from((x & !y & mask).count_ones());
                pairs.only_cell += u64::from((!x & y & mask).count_ones());
                pairs.neither += u64::from((!x & !y & mask).count_ones());
            }
            t.paired = Some(pairs);
        }
    }
    Chunk {
        wall_s: 0.0,
        from,
        to,
        cells: active.to_vec(),
        totals,
    }
}

impl Totals {
    /// Adds one finished game.
    fn record(&mut self, outcome: Outcome, turns: u32, metrics: &[i64]) {
        self.games += 1;
        self.turns += u64::from(turns);
        let t = turns as usize;
        if self.turn_histogram.len() <= t {
            self.turn_histogram.resize(t + 1, 0);
        }
        self.turn_histogram[t] += 1;
        match outcome {
            Outcome::Won => self.wins += 1,
            Outcome::Lost(cause) => self.lost[cause as usize] += 1,
        }
        for (sum, m) in self.metrics.iter_mut().zip(metrics) {
            *sum += m;
        }
    }
}
