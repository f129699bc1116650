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
use super::report::{CellReport, GameRow, GamesCsv, Report, Totals};
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
    let rate = if elapsed_s > 0.0 {
        done as f64 / elapsed_s
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
    let mut state = G::new_game(setup, &mut stream_rng(seed, index, Stream::Setup));
    let mut chance = stream_rng(seed, index, Stream::Chance);
    let mut own = stream_rng(seed, index, Stream::Policy);
    let mut decisions = 0u32;
    while state.outcome().is_none() {
        assert!(
            decisions < G::MAX_DECISIONS,
            "{}: game {index} of seed {seed} did not end within {} decisions",
            G::NAME,
            G::MAX_DECISIONS
        );
        state.legal_actions(legal);
        let action = policy.choose_foreseeing(&state, legal, &mut own, &chance);
        state.apply(action, &mut chance);
        decisions += 1;
    }
    state
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

    fn merge(mut self, other: Acc) -> Acc {
        for (a, b) in self.totals.iter_mut().zip(&other.totals) {
            a.add(b);
        }
        self
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
    let (causes, metrics) = (G::loss_causes().len(), G::metric_names().len());
    Report {
        experiment: plan.experiment.clone(),
        game: G::NAME,
        axes: plan.axes.clone(),
        strategies: plan
            .strategies
            .iter()
            .map(|s| (s.name.clone(), s.definition.clone()))
            .collect(),
        loss_causes: G::loss_causes().to_vec(),
        metric_names: G::metric_names().to_vec(),
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
    let start = Instant::now();
    let threads = options.threads.min(MAX_THREADS);
    let pool = thread_pool(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("sololab-{i}"))
            .build(),
        threads,
    )?;
    let pool_threads = pool.current_num_threads();
    let seed = plan.experiment.seed;
    let total = plan.total_games();
    let (causes, metric_count) = (G::loss_causes().len(), G::metric_names().len());
    let cells = plan.cells.len();
    let games = plan.experiment.games;
    let done = AtomicU64::new(0);
    // Pieces small enough that the last one running alone is a short tail (about 1/32 of
    // one thread's share), large enough that building policies per piece is negligible.
    let max_len = total.div_ceil(pool_threads as u64 * 32).max(1) as usize;

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
    let play = |mut w: Worker<G>, k: usize| {
        // Interleaved: consecutive indices visit every cell, so any contiguous piece of the
        // range costs about the same whatever the cells' strategies (load balance).
        let (c, i) = (k % cells, (k / cells) as u64);
        play_one(&mut w, c, i);
        w
    };
    let total_len = usize::try_from(total).expect("the run fits in memory's index range");

    // Without raw: one flat parallel range folded into totals. With raw: chunks in (cell,
    // index) order, each played in parallel and handed to the sink before the next.
    let mut run = || -> Result<(Vec<Totals>, usize), RunError> {
        if !options.raw {
            let acc = pool.install(|| {
                (0..total_len)
                    .into_par_iter()
                    .with_max_len(max_len)
                    .fold(new_worker, play)
                    .map(|w| w.acc)
                    .reduce(|| Acc::new(cells, causes, metric_count), Acc::merge)
            });
            return Ok((acc.totals, 0));
        }
        let mut totals = vec![Totals::new(causes, metric_count); cells];
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
            }
            peak = peak.max(chunk.len());
            sink.rows(&chunk).map_err(RunError::Rows)?;
            from = to;
        }
        Ok((totals, peak))
    };

    let result = std::thread::scope(|scope| {
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
    });
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

impl Totals {
    /// Adds one finished game.
    fn record(&mut self, outcome: Outcome, turns: u32, metrics: &[i64]) {
        self.games += 1;
        self.turns += u64::from(turns);
        match outcome {
            Outcome::Won => self.wins += 1,
            Outcome::Lost(cause) => self.lost[cause as usize] += 1,
        }
        for (sum, m) in self.metrics.iter_mut().zip(metrics) {
            *sum += m;
        }
    }
}
