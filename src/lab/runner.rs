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

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::plan::Plan;
use super::report::{CellReport, GameRow, Report, Totals};
use crate::game::{Game, Outcome, Stream, stream_rng};
use crate::policy::Policy;

/// The most worker threads a run may ask for (a thread count is not worth more than the cores,
/// and each thread reserves a stack).
pub const MAX_THREADS: usize = 1024;

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
        let action = policy.choose(&state, legal, &mut own);
        state.apply(action, &mut chance);
        decisions += 1;
    }
    state
}

/// The per-task accumulator: integer totals per cell (and rows with `--raw`).
struct Acc {
    totals: Vec<Totals>,
    rows: Vec<GameRow>,
}

impl Acc {
    fn new(cells: usize, causes: usize, metrics: usize) -> Acc {
        Acc {
            totals: vec![Totals::new(causes, metrics); cells],
            rows: Vec::new(),
        }
    }

    fn merge(mut self, other: Acc) -> Acc {
        for (a, b) in self.totals.iter_mut().zip(&other.totals) {
            a.add(b);
        }
        self.rows.extend(other.rows);
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

/// Runs every game of every cell of `plan` on a rayon pool of `options.threads` threads and
/// returns the report. The report's numbers (everything but `threads` and `wall_s`) depend only
/// on the plan, not on the thread count or scheduling.
///
/// # Panics
/// When the thread pool cannot be built, or a game or policy panics (the panic is passed on).
pub fn run_experiment_with_progress<G: Game>(
    plan: &Plan<G>,
    options: &RunOptions,
    progress: &dyn Progress,
) -> Report {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.min(MAX_THREADS))
        .thread_name(|i| format!("sololab-{i}"))
        .build()
        .expect("cannot start the worker threads");
    let threads = pool.current_num_threads();
    let seed = plan.experiment.seed;
    let total = plan.total_games();
    let (causes, metric_count) = (G::loss_causes().len(), G::metric_names().len());
    let cells = plan.cells.len();
    let done = AtomicU64::new(0);
    // Pieces small enough that the last one running alone is a short tail (about 1/32 of
    // one thread's share), large enough that building policies per piece is negligible.
    let max_len = total.div_ceil(threads as u64 * 32).max(1) as usize;

    let new_worker = || Worker::<G> {
        acc: Acc::new(cells, causes, metric_count),
        policies: (0..plan.strategies.len()).map(|_| None).collect(),
        legal: Vec::with_capacity(64),
        metrics: vec![0; metric_count],
    };
    let play = |mut w: Worker<G>, k: usize| {
        // Interleaved: consecutive indices visit every cell, so any contiguous piece of the
        // range costs about the same whatever the cells' strategies (load balance).
        let (c, i) = (k % cells, (k / cells) as u64);
        let cell = &plan.cells[c];
        let policy = w.policies[cell.strategy]
            .get_or_insert_with(|| (plan.strategies[cell.strategy].factory)());
        let end = play_game::<G>(&cell.setup, policy.as_mut(), seed, i, &mut w.legal);
        let outcome = end.outcome().expect("play_game returns finished games");
        end.metrics(&mut w.metrics);
        w.acc.totals[c].record(outcome, end.turns(), &w.metrics);
        if options.raw {
            w.acc.rows.push(GameRow {
                cell: c,
                index: i,
                outcome,
                turns: end.turns(),
                metrics: w.metrics.clone(),
            });
        }
        done.fetch_add(1, Ordering::Relaxed);
        w
    };

    let acc = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let (pool, new_worker, play) = (&pool, &new_worker, &play);
        let runner = scope.spawn(move || {
            let acc = pool.install(|| {
                (0..usize::try_from(total).expect("the run fits in memory's index range"))
                    .into_par_iter()
                    .with_max_len(max_len)
                    .fold(new_worker, play)
                    .map(|w| w.acc)
                    .reduce(|| Acc::new(cells, causes, metric_count), Acc::merge)
            });
            // The receiver only goes away if the caller's thread panicked.
            let _ = tx.send(());
            acc
        });
        loop {
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    progress.update(done.load(Ordering::Relaxed), total);
                }
            }
        }
        match runner.join() {
            Ok(acc) => acc,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    progress.update(total, total);
    progress.finish(total, total);

    let mut rows = acc.rows;
    rows.sort_by_key(|r| (r.cell, r.index));
    let cells = plan
        .cells
        .iter()
        .zip(acc.totals)
        .map(|(cell, totals)| CellReport {
            strategy: plan.strategies[cell.strategy].name.clone(),
            values: cell.values.clone(),
            totals,
        })
        .collect();
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
        cells,
        rows: options.raw.then_some(rows),
        threads,
        wall_s: start.elapsed().as_secs_f64(),
    }
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
