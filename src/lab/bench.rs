//! Measuring the simulators: games per second per game and strategy through the lab's own
//! runner (`sololab bench`), fixed seeded workloads for the instruction-count gate
//! (`sololab bench --workload`, `scripts/bench-gate.sh`), and the helpers the criterion
//! benchmarks in `benches/` share: a step-counting game adapter ([`Counted`]) and sampled
//! states ([`sample_states`]).
//!
//! Everything here goes through the registry ([`GameKind::ALL`] and
//! [`with_game!`](crate::with_game)), so a game added there is measured and gated with no code
//! of its own.

use std::cell::Cell;
use std::fmt;
use std::path::Path;
use std::time::Instant;

use super::experiment::{ErrorKind, Experiment, ExperimentError};
use super::plan::{Plan, PolicyFactory};
use super::runner::{NoProgress, RunOptions, play_game, play_game_for, try_run_experiment};
use crate::game::{
    Axis, Game, GameRng, GateSize, Outcome, PlanStep, PositionError, SetupError, SetupValues,
    Stream, Tracer, below, stream_rng,
};
use crate::games::GameKind;
use crate::policy::{Strategy, StrategyKind};
use crate::with_game;

// ---------------------------------------------------------------------------------------------
// Counting simulated steps.

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// The number of [`Game::apply`] calls made on [`Counted`] states by this thread since the last
/// [`reset_steps`] (a thread-local counter: read it on the thread that played).
pub fn steps() -> u64 {
    STEPS.with(Cell::get)
}

/// Sets this thread's [`steps`] counter to 0.
pub fn reset_steps() {
    STEPS.with(|s| s.set(0));
}

/// A game adapter that counts simulated steps: every [`Game::apply`] (and
/// [`apply_traced`](Game::apply_traced)) on a `Counted<G>` adds one to this thread's
/// [`steps`] counter and then plays `G`'s rule unchanged. Everything else forwards to `G`, so
/// a policy built for `Counted<G>` makes the same choices as one built for `G`, and the count
/// includes every `apply` a search makes: tree descent, rollouts and the greedy look-ahead
/// inside rollouts.
///
/// The cost is one thread-local increment per step (about a nanosecond).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Counted<G>(pub G);

impl<G: fmt::Display> fmt::Display for Counted<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<G: Game> Game for Counted<G> {
    type Action = G::Action;
    type Setup = G::Setup;
    const NAME: &'static str = G::NAME;
    const MAX_DECISIONS: u32 = G::MAX_DECISIONS;
    const GATE_WORKLOADS: &'static [(&'static str, GateSize)] = G::GATE_WORKLOADS;
    const CONTENT_TOML: Option<&'static str> = G::CONTENT_TOML;
    fn content_toml() -> Option<&'static str> {
        G::content_toml()
    }

    fn axes() -> &'static [Axis] {
        G::axes()
    }
    fn resolve_setup(values: &SetupValues) -> Result<G::Setup, SetupError> {
        G::resolve_setup(values)
    }
    fn axis_names(setup: &G::Setup, axis: &str) -> Vec<String> {
        G::axis_names(setup, axis)
    }
    fn new_game(setup: &G::Setup, rng: &mut GameRng) -> Self {
        Counted(G::new_game(setup, rng))
    }
    #[inline]
    fn legal_actions(&self, out: &mut Vec<G::Action>) {
        self.0.legal_actions(out);
    }
    #[inline]
    fn apply_traced<T: Tracer>(&mut self, action: G::Action, rng: &mut GameRng, trace: &mut T) {
        STEPS.with(|s| s.set(s.get() + 1));
        self.0.apply_traced(action, rng, trace);
    }
    #[inline]
    fn result_code(&self) -> u8 {
        self.0.result_code()
    }
    const LOSS_CAUSES: &'static [&'static str] = G::LOSS_CAUSES;
    const FEATURE_NAMES: &'static [&'static str] = G::FEATURE_NAMES;
    #[inline]
    fn features(&self, out: &mut [f64]) {
        self.0.features(out);
    }
    #[inline]
    fn features_needed(&self, needed: u64, out: &mut [f64]) {
        self.0.features_needed(needed, out);
    }
    const METRIC_NAMES: &'static [&'static str] = G::METRIC_NAMES;
    fn metrics(&self, out: &mut [i64]) {
        self.0.metrics(out);
    }
    fn turns(&self) -> u32 {
        self.0.turns()
    }
    const HIDDEN_INFORMATION: bool = G::HIDDEN_INFORMATION;
    #[inline]
    fn determinize(&mut self, rng: &mut GameRng) {
        self.0.determinize(rng);
    }
    #[inline]
    fn conceal(&mut self) {
        self.0.conceal();
    }
    #[inline]
    fn plan_step(&self, action: G::Action) -> PlanStep {
        self.0.plan_step(action)
    }
    fn action_text(&self, action: G::Action) -> String {
        self.0.action_text(action)
    }
    fn to_position(&self) -> String {
        self.0.to_position()
    }
    fn from_position(text: &str) -> Result<Self, PositionError> {
        G::from_position(text).map(Counted)
    }
}

// ---------------------------------------------------------------------------------------------
// Sampled states, for the legal-action and state-copy benchmarks.

/// `count` unfinished states met along random playouts of `setup` (game `i` on the seed streams
/// of `seed`, every state from the first decision to the last), for benchmarks that measure
/// one operation on realistic states. Deterministic for a given `seed`.
///
/// # Panics
/// When a playout exceeds [`Game::MAX_DECISIONS`] (a bug in the game).
pub fn sample_states<G: Game>(setup: &G::Setup, count: usize, seed: u64) -> Vec<G> {
    let mut states = Vec::with_capacity(count);
    let mut legal = Vec::new();
    let mut index = 0u64;
    while states.len() < count {
        let mut state = G::new_game(setup, &mut stream_rng(seed, index, Stream::Setup));
        let mut chance = stream_rng(seed, index, Stream::Chance);
        let mut own = stream_rng(seed, index, Stream::Policy);
        let mut decisions = 0;
        while state.outcome().is_none() && states.len() < count {
            assert!(
                decisions < G::MAX_DECISIONS,
                "{}: playout too long",
                G::NAME
            );
            states.push(state);
            state.legal_actions(&mut legal);
            let action = legal[below(&mut own, legal.len() as u32) as usize];
            state.apply(action, &mut chance);
            decisions += 1;
        }
        index += 1;
    }
    states
}

// ---------------------------------------------------------------------------------------------
// Strategies.

/// A [`PolicyFactory`] for the strategy `name` (a file in `dir` or a shipped strategy), built
/// once here so that its errors surface before any game is played.
///
/// # Errors
/// [`ErrorKind::UnknownStrategy`] listing the available names, or [`ErrorKind::Strategy`] with
/// the loader's message when the file is bad or has no weights for `G`.
pub fn policy_factory<G: Game>(name: &str, dir: &Path) -> Result<PolicyFactory<G>, ErrorKind> {
    super::plan::strategy_source::<G>(name, dir).map(|source| source.factory)
}

/// The strategies `sololab bench` measures by default.
pub const BENCH_STRATEGIES: &[&str] = &["random", "greedy", "mcts-200"];

/// The seed of every benchmark and workload run (games `0..n` of it).
pub const BENCH_SEED: u64 = 1;

/// Games per measurement of `sololab bench` for a strategy of `kind`: 100,000 random games,
/// 1,000 greedy games, `8000 / iterations` MCTS games (40 for `mcts-200`): on one core of a
/// small machine about half a second, a second and five seconds (Rift), enough games that two
/// threads finish together.
pub fn bench_games(kind: &StrategyKind) -> u64 {
    match kind {
        StrategyKind::Random => 100_000,
        StrategyKind::Greedy { .. } => 1000,
        StrategyKind::Beam { width, .. } => (20_000 / u64::from(*width)).max(2),
        StrategyKind::Mcts { config, .. } => (8000 / u64::from(config.iterations)).max(2),
    }
}

// ---------------------------------------------------------------------------------------------
// `sololab bench`: games per second through the runner.

/// One line of `sololab bench`: games per second of one game and strategy, on one thread and
/// on all threads.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchRow {
    /// The game's registry name.
    pub game: &'static str,
    /// The strategy's name.
    pub strategy: String,
    /// Games played per measurement.
    pub games: u64,
    /// Games won in one measurement (the same on every thread count; a check that both runs
    /// played the same games).
    pub wins: u64,
    /// Games per second with one worker thread.
    pub games_per_s_1: f64,
    /// Worker threads of the parallel measurement (all the machine's threads unless set).
    pub threads: usize,
    /// Games per second with `threads` worker threads.
    pub games_per_s_n: f64,
    /// The setup values the games were played with (`sololab bench --set`), `KEY=VALUE`
    /// joined by spaces in axis order; empty for the game's default setup.
    pub setup: String,
}

impl BenchRow {
    /// `games_per_s_n / games_per_s_1`: the speed-up from using `threads` threads (ideally
    /// `threads`).
    pub fn scaling(&self) -> f64 {
        if self.games_per_s_1 > 0.0 {
            self.games_per_s_n / self.games_per_s_1
        } else {
            0.0
        }
    }
}

/// Measures `strategy` on game `kind`: `games` seeded games (games `0..games` of
/// [`BENCH_SEED`]; [`bench_games`] when `None`) run by [`run_experiment`](crate::lab::run_experiment) once on one worker
/// thread and once on `threads` threads (`0`: one per core). The games use the game's default
/// setup with the `set` values (`KEY=VALUE`, as `sololab play --set`: an axis or a content
/// value) in its place. Strategies are looked up in `dir`, then among the shipped ones.
///
/// # Errors
/// When the strategy does not exist or does not build for the game, a `set` value is not one
/// of the game's axes or values, or the worker threads cannot be started.
///
/// # Panics
/// When the two runs disagree on the number of wins (they play the same seeded games, so that
/// would be a reproducibility bug), or when the runner panics.
pub fn bench_strategy(
    kind: GameKind,
    strategy: &str,
    games: Option<u64>,
    threads: usize,
    set: &[String],
    dir: &Path,
) -> Result<BenchRow, ExperimentError> {
    with_game!(kind, G => bench_typed::<G>(strategy, games, threads, set, dir))
}

fn bench_typed<G: Game>(
    strategy: &str,
    games: Option<u64>,
    threads: usize,
    set: &[String],
    dir: &Path,
) -> Result<BenchRow, ExperimentError> {
    let (values, _) = super::play::setup_values_from_pairs::<G>(set)?;
    let games = match games {
        Some(n) => n,
        None => {
            let s = Strategy::named(strategy, dir).map_err(|e| ExperimentError {
                at: super::experiment::Location {
                    path: format!("strategy {strategy}"),
                    line_column: None,
                },
                kind: ErrorKind::Strategy {
                    name: strategy.to_string(),
                    message: e.to_string(),
                },
            })?;
            bench_games(&s.kind)
        }
    };
    let text = format!(
        "name = \"bench\"\ngame = {}\nstrategies = [{}]\ngames = {games}\nseed = {BENCH_SEED}\n",
        toml::Value::String(G::NAME.to_string()),
        toml::Value::String(strategy.to_string()),
    );
    let mut experiment = Experiment::parse(&text, "sololab bench")?;
    let setup = values
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    experiment.setup = values.into_iter().collect();
    let plan = Plan::<G>::new(experiment, |name| policy_factory::<G>(name, dir))?;
    let measure = |threads: usize| {
        let options = RunOptions {
            threads,
            raw: false,
        };
        try_run_experiment(&plan, &options, &NoProgress, &mut Vec::new()).map_err(|e| {
            ExperimentError {
                at: super::experiment::Location {
                    path: "sololab bench".into(),
                    line_column: None,
                },
                kind: ErrorKind::Invalid(e.to_string()),
            }
        })
    };
    let one = measure(1)?;
    let all = measure(threads)?;
    let wins = |r: &super::report::Report| r.cells[0].totals.wins;
    assert_eq!(
        wins(&one),
        wins(&all),
        "{} {strategy}: 1 and {} threads played different games",
        G::NAME,
        all.threads
    );
    Ok(BenchRow {
        game: G::NAME,
        strategy: strategy.to_string(),
        games,
        wins: wins(&one),
        games_per_s_1: one.games_per_s(),
        threads: all.threads,
        games_per_s_n: all.games_per_s(),
        setup,
    })
}

/// The CSV columns of `sololab bench --csv`, in order.
pub const BENCH_CSV_HEADER: &[&str] = &[
    "game",
    "strategy",
    "games",
    "wins",
    "games_per_s_1_thread",
    "threads",
    "games_per_s_n_threads",
    "scaling",
    "setup",
];

/// `rows` as CSV with [`BENCH_CSV_HEADER`] (rates with one decimal, scaling with two; the
/// setup column empty for a game's default setup).
pub fn bench_csv(rows: &[BenchRow]) -> String {
    let mut out = BENCH_CSV_HEADER.join(",");
    out.push('\n');
    for r in rows {
        out.push_str(&format!(
            "{},{},{},{},{:.1},{},{:.1},{:.2},{}\n",
            r.game,
            r.strategy,
            r.games,
            r.wins,
            r.games_per_s_1,
            r.threads,
            r.games_per_s_n,
            r.scaling(),
            super::sensitivity::csv_field(&r.setup)
        ));
    }
    out
}

/// `rows` as an aligned table for the terminal (with a `setup` column when any row has setup
/// values).
pub fn bench_table(rows: &[BenchRow]) -> String {
    let threads = rows.first().map_or(0, |r| r.threads);
    let mut lines = vec![vec![
        "game".to_string(),
        "strategy".to_string(),
        "games".to_string(),
        "games/s (1 thread)".to_string(),
        format!(
            "games/s ({threads} thread{})",
            if threads == 1 { "" } else { "s" }
        ),
        "scaling".to_string(),
    ]];
    let with_setup = rows.iter().any(|r| !r.setup.is_empty());
    if with_setup {
        lines[0].push("setup".to_string());
    }
    for r in rows {
        let mut line = vec![
            r.game.to_string(),
            r.strategy.clone(),
            r.games.to_string(),
            format!("{:.1}", r.games_per_s_1),
            format!("{:.1}", r.games_per_s_n),
            format!("{:.2}x", r.scaling()),
        ];
        if with_setup {
            line.push(r.setup.clone());
        }
        lines.push(line);
    }
    align(&lines)
}

/// Left-aligns the first two columns and right-aligns the others.
fn align(lines: &[Vec<String>]) -> String {
    let columns = lines[0].len();
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (text, &w))| {
                if c < 2 {
                    format!("{text:<w$}")
                } else {
                    format!("{text:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Workloads for the instruction-count gate.

/// A fixed, seeded amount of work for the instruction-count gate: `size` of games `0..` of
/// [`BENCH_SEED`] (default setup) of `game` played with `strategy`, one after the other on the
/// calling thread. Written `game/strategy/size`: `rift/random/2000` (whole games) or
/// `buried/mcts-200/60d` (the first 60 decisions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    /// The game.
    pub game: GameKind,
    /// The strategy's name.
    pub strategy: String,
    /// How much to play.
    pub size: GateSize,
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.game.name(), self.strategy, self.size)
    }
}

impl std::str::FromStr for Workload {
    type Err = String;

    /// Reads `game/strategy/games` or `game/strategy/decisionsd`.
    ///
    /// # Errors
    /// A one-line message when the text has not three parts, the game is unknown, or the size
    /// is not a whole number `>= 1` (optionally followed by `d`).
    fn from_str(text: &str) -> Result<Workload, String> {
        let parts: Vec<&str> = text.split('/').collect();
        let [game, strategy, size] = parts[..] else {
            return Err(format!("workload '{text}': expected GAME/STRATEGY/GAMES"));
        };
        let game = GameKind::from_name(game).map_err(|e| format!("workload '{text}': {e}"))?;
        let (number, decisions) = match size.strip_suffix('d') {
            Some(n) => (n, true),
            None => (size, false),
        };
        // Digits only ("+5" and " 5" are not sizes the workload prints back).
        let digits = !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit());
        let parsed = if digits {
            number.parse::<u64>().ok()
        } else {
            None
        };
        let size = match parsed {
            Some(n) if n >= 1 && decisions => GateSize::Decisions(n),
            Some(n) if n >= 1 => GateSize::Games(n),
            _ => {
                return Err(format!(
                    "workload '{text}': size '{size}' is not a whole number >= 1 of games \
                     (or of decisions, with a 'd')"
                ));
            }
        };
        if strategy.is_empty() {
            return Err(format!("workload '{text}': no strategy"));
        }
        Ok(Workload {
            game,
            strategy: strategy.to_string(),
            size,
        })
    }
}

/// The gate's workloads: every game of the registry with its [`Game::GATE_WORKLOADS`] (by
/// default 20,000 random games, 100 greedy games and 3 `mcts-200` games).
pub fn default_workloads() -> Vec<Workload> {
    let mut out = Vec::new();
    for &game in GameKind::ALL {
        let list = with_game!(game, G => G::GATE_WORKLOADS);
        for &(strategy, size) in list {
            out.push(Workload {
                game,
                strategy: strategy.to_string(),
                size,
            });
        }
    }
    out
}

/// What a workload computed: enough to check that it played the games it should have.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WorkloadAnswer {
    /// Games played: the workload's games, or for a decision count the games started (the
    /// last one cut off).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Turns played in all games ([`Game::turns`] of each finished game).
    pub turns: u64,
    /// Simulated steps: every [`Game::apply`], the policies' look-ahead and search included.
    pub steps: u64,
    /// Wall-clock seconds (not part of the answer proper: it varies from run to run).
    pub wall_s: f64,
}

impl fmt::Display for WorkloadAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games={} wins={} turns={} steps={}",
            self.games, self.wins, self.turns, self.steps
        )
    }
}

/// Runs `workload` with strategies from `dir` (or the shipped ones): the games one after the
/// other on the calling thread through [`play_game`] (the runner's own per-game code), on
/// [`Counted`] states so that the answer includes the simulated steps. The answer depends only
/// on the workload (and the code), never on the machine.
///
/// # Errors
/// When the strategy does not exist or does not build for the game.
pub fn run_workload(workload: &Workload, dir: &Path) -> Result<WorkloadAnswer, ErrorKind> {
    with_game!(workload.game, G => {
        let factory = policy_factory::<Counted<G>>(&workload.strategy, dir)?;
        let setup = G::resolve_setup(&SetupValues::new()).map_err(|e| ErrorKind::Setup {
            cell: String::new(),
            message: e.0,
        })?;
        Ok(play_workload::<Counted<G>>(&setup, &factory, workload.size))
    })
}

/// The measured loop of [`run_workload`], kept out of line under a stable name so that
/// `valgrind --tool=callgrind --toggle-collect='*play_workload*'` counts exactly its
/// instructions.
#[inline(never)]
pub fn play_workload<G: Game>(
    setup: &G::Setup,
    factory: &PolicyFactory<G>,
    size: GateSize,
) -> WorkloadAnswer {
    let start = Instant::now();
    let mut policy = factory();
    let mut legal = Vec::with_capacity(64);
    let (mut games, mut wins, mut turns) = (0, 0, 0);
    let before = steps();
    match size {
        GateSize::Games(n) => {
            for index in 0..n {
                let end = play_game::<G>(setup, policy.as_mut(), BENCH_SEED, index, &mut legal);
                games += 1;
                wins += u64::from(end.outcome().is_some_and(Outcome::is_win));
                turns += u64::from(end.turns());
            }
        }
        GateSize::Decisions(n) => {
            let mut left = n;
            let mut index = 0;
            while left > 0 {
                let limit = u32::try_from(left).unwrap_or(u32::MAX);
                let (end, made) = play_game_for::<G>(
                    setup,
                    policy.as_mut(),
                    BENCH_SEED,
                    index,
                    &mut legal,
                    limit,
                );
                games += 1;
                index += 1;
                left -= u64::from(made);
                wins += u64::from(end.outcome().is_some_and(Outcome::is_win));
                turns += u64::from(end.turns());
                if made == 0 {
                    break; // a game that ends before its first decision: nothing to count
                }
            }
        }
    }
    WorkloadAnswer {
        games,
        wins,
        turns,
        steps: steps() - before,
        wall_s: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::race::Race;
    use crate::policy::{Policy, RandomPolicy};
    use rand::SeedableRng;

    #[test]
    fn counted_counts_every_apply_and_plays_like_the_game() {
        let setup = Race::resolve_setup(&SetupValues::new()).unwrap();
        let mut legal = Vec::new();
        reset_steps();
        let plain = play_game::<Race>(&setup, &mut RandomPolicy, 4, 0, &mut legal);
        assert_eq!(steps(), 0, "plain games do not count");
        let counted = play_game::<Counted<Race>>(
            &setup,
            &mut RandomPolicy as &mut dyn Policy<_>,
            4,
            0,
            &mut legal,
        );
        assert_eq!(counted.0, plain, "same seeds, same game");
        assert_eq!(steps(), u64::from(plain.turn), "one step per Race decision");
    }

    #[test]
    fn workloads_read_and_print_as_game_strategy_games() {
        let w: Workload = "rift/mcts-200/3".parse().unwrap();
        assert_eq!(
            w,
            Workload {
                game: GameKind::Rift,
                strategy: "mcts-200".into(),
                size: GateSize::Games(3)
            }
        );
        assert_eq!(w.to_string(), "rift/mcts-200/3");
        for bad in [
            "rift/random",
            "chess/random/3",
            "rift/random/0",
            "rift//3",
            "rift/random/x",
            "rift/random/+5",
            "rift/random/+5d",
        ] {
            let e = bad.parse::<Workload>().unwrap_err();
            assert!(e.starts_with(&format!("workload '{bad}'")), "{e}");
        }
        let all = default_workloads();
        let w: Workload = "buried/mcts-200/60d".parse().unwrap();
        assert_eq!(w.size, GateSize::Decisions(60));
        assert_eq!(w.to_string(), "buried/mcts-200/60d");
        assert!("rift/random/0d".parse::<Workload>().is_err());
        let declared: usize = GameKind::ALL
            .iter()
            .map(|&g| with_game!(g, G => G::GATE_WORKLOADS.len()))
            .sum();
        assert_eq!(all.len(), declared);
        assert!(all.len() >= 3 * GameKind::ALL.len());
        assert!(
            all.iter()
                .all(|w| w.to_string().parse::<Workload>().as_ref() == Ok(w))
        );
    }

    #[test]
    fn a_decision_workload_cuts_the_game_where_the_count_is_reached() {
        use crate::games::rift::Rift;
        use crate::policy::RandomPolicy;
        let setup = Rift::resolve_setup(&SetupValues::new()).unwrap();
        let mut legal = Vec::new();
        let (first, made) = play_game_for::<Rift>(
            &setup,
            &mut RandomPolicy,
            BENCH_SEED,
            0,
            &mut legal,
            u32::MAX,
        );
        assert!(first.outcome().is_some() && made > 3, "{made}");
        let dir = Path::new("/nonexistent");
        let whole = run_workload(&format!("rift/random/{made}d").parse().unwrap(), dir).unwrap();
        assert_eq!(whole.games, 1, "exactly game 0");
        let one = run_workload(&"rift/random/1".parse().unwrap(), dir).unwrap();
        assert_eq!(
            (whole.wins, whole.turns, whole.steps),
            (one.wins, one.turns, one.steps)
        );
        let more =
            run_workload(&format!("rift/random/{}d", made + 3).parse().unwrap(), dir).unwrap();
        assert_eq!(more.games, 2, "game 1 cut off after 3 decisions");
        assert_eq!(
            more.steps,
            one.steps + 3,
            "3 more random decisions, one step each"
        );
        let (cut, three) =
            play_game_for::<Rift>(&setup, &mut RandomPolicy, BENCH_SEED, 1, &mut legal, 3);
        assert_eq!((three, cut.outcome()), (3, None));
    }

    #[test]
    fn a_workload_answer_depends_only_on_the_workload() {
        let w: Workload = "rift/random/50".parse().unwrap();
        let dir = Path::new("/nonexistent");
        let (a, b) = (
            run_workload(&w, dir).unwrap(),
            run_workload(&w, dir).unwrap(),
        );
        assert_eq!(
            (a.games, a.wins, a.turns, a.steps),
            (b.games, b.wins, b.turns, b.steps)
        );
        assert_eq!(a.games, 50);
        assert!(a.steps >= 50, "{a}");
        let e = run_workload(&"rift/nope/1".parse().unwrap(), dir).unwrap_err();
        assert!(matches!(e, ErrorKind::UnknownStrategy { .. }), "{e}");
    }

    #[test]
    fn bench_rows_print_as_csv_and_table() {
        let row = BenchRow {
            game: "rift",
            strategy: "random".into(),
            games: 10,
            wins: 1,
            games_per_s_1: 100.0,
            threads: 2,
            games_per_s_n: 190.0,
            setup: String::new(),
        };
        assert!((row.scaling() - 1.9).abs() < 1e-12);
        let csv = bench_csv(std::slice::from_ref(&row));
        assert_eq!(
            csv,
            "game,strategy,games,wins,games_per_s_1_thread,threads,games_per_s_n_threads,scaling,setup\n\
             rift,random,10,1,100.0,2,190.0,1.90,\n"
        );
        let table = bench_table(std::slice::from_ref(&row));
        assert!(table.starts_with("game  strategy  games"), "{table}");
        assert!(
            table.contains("games/s (2 threads)") && table.contains("1.90x"),
            "{table}"
        );
        assert!(!table.contains("setup"), "{table}");
        let set = BenchRow {
            setup: "heroes=4 scenario=a,b".into(),
            ..row
        };
        assert!(
            bench_csv(std::slice::from_ref(&set)).ends_with(",1.90,\"heroes=4 scenario=a,b\"\n")
        );
        let table = bench_table(&[set]);
        assert!(table.lines().next().unwrap().ends_with("setup"), "{table}");
        assert!(table.contains("heroes=4 scenario=a,b"), "{table}");
    }

    #[test]
    fn counted_forwards_what_each_registered_game_overrides() {
        // Each trait method with a default that a game overrides must reach the game through
        // `Counted`, or a benched search plays another game than a run (`conceal` keys
        // closed-loop MCTS and the beam; `features_needed` skips Buried's `engage`).
        for &kind in GameKind::ALL {
            crate::with_game!(kind, G => {
                assert_eq!(Counted::<G>::HIDDEN_INFORMATION, G::HIDDEN_INFORMATION);
                assert_eq!(Counted::<G>::content_toml(), G::content_toml());
                assert_eq!(Counted::<G>::GATE_WORKLOADS, G::GATE_WORKLOADS);
                let setup = G::resolve_setup(&SetupValues::new()).unwrap();
                let n = G::FEATURE_NAMES.len();
                let mut legal = Vec::new();
                for s in sample_states::<G>(&setup, 40, 5) {
                    let mut c = Counted(s);
                    let (mut a, mut b) = (vec![1.5; n], vec![1.5; n]);
                    for needed in [0, u64::MAX] {
                        s.features_needed(needed, &mut a);
                        c.features_needed(needed, &mut b);
                        assert_eq!(a, b, "{}: features_needed({needed:#x})", G::NAME);
                    }
                    s.legal_actions(&mut legal);
                    for &act in &legal {
                        assert_eq!(c.plan_step(act), s.plan_step(act), "{}", G::NAME);
                    }
                    let (mut d, mut rng, mut rng2) = (s, GameRng::seed_from_u64(9), GameRng::seed_from_u64(9));
                    d.determinize(&mut rng);
                    c.determinize(&mut rng2);
                    assert_eq!(c.0, d, "{}: determinize", G::NAME);
                    let mut k = s;
                    k.conceal();
                    let mut ck = Counted(s);
                    ck.conceal();
                    assert_eq!(ck.0, k, "{}: conceal", G::NAME);
                }
            });
        }
    }

    #[test]
    fn sampled_states_are_unfinished_and_reproducible() {
        let setup = Race::resolve_setup(&SetupValues::new()).unwrap();
        let a = sample_states::<Race>(&setup, 100, 3);
        assert_eq!(a.len(), 100);
        assert!(a.iter().all(|s| s.outcome().is_none()));
        assert_eq!(a, sample_states::<Race>(&setup, 100, 3));
    }
}
