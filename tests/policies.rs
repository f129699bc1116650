//! Policies and strategy files: every shipped strategy plays every game legally to the end,
//! the searching policies beat random by a measured margin, an MCTS choice is a function of the
//! state and the policy stream it is handed (that the runner hands it the policy stream, not the
//! chance stream, is checked in `tests/streams.rs`), strategy-file errors are one line naming
//! the file and the key, and no policy allocates per decision once warm.
//!
//! Set `SOLOLAB_SLOW_TESTS=1` to play five times as many games.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::{Path, PathBuf};

use sololab::games::race::{GOAL, Race, RaceAction, TURNS};
use sololab::games::rift::{Rift, RiftSetup};
use sololab::policy::{Rollout, StrategyErrorKind, strategy_names};
use sololab::{Game, GameRng, Outcome, Policy, Strategy, StrategyKind, Stream, below, stream_rng};

// ---------------------------------------------------------------------------------------------
// A per-thread allocation counter, to check that policies do not allocate per decision.

struct CountingAlloc;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

// SAFETY: every method forwards to `System` unchanged; counting touches only a const-initialised
// thread-local `Cell` without a destructor, which never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

// ---------------------------------------------------------------------------------------------
// Helpers.

fn strategies_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies")
}

/// 5 with `SOLOLAB_SLOW_TESTS` set, else 1.
fn slow_factor() -> u64 {
    if std::env::var_os("SOLOLAB_SLOW_TESTS").is_some() {
        5
    } else {
        1
    }
}

/// Plays game `index` of experiment `seed` to the end with `policy`, on the three seed
/// streams, checking every choice is in `legal` and the length is within `MAX_DECISIONS`.
/// Returns the outcome and the number of decisions.
fn play<G: Game>(
    setup: &G::Setup,
    policy: &mut dyn Policy<G>,
    who: &str,
    seed: u64,
    index: u64,
    legal: &mut Vec<G::Action>,
) -> (Outcome, u32) {
    let mut state = G::new_game(setup, &mut stream_rng(seed, index, Stream::Setup));
    let mut chance = stream_rng(seed, index, Stream::Chance);
    let mut rng = stream_rng(seed, index, Stream::Policy);
    let mut decisions = 0;
    loop {
        if let Some(outcome) = state.outcome() {
            return (outcome, decisions);
        }
        state.legal_actions(legal);
        assert!(
            !legal.is_empty(),
            "{}: no legal action in an unfinished game:\n{state}",
            G::NAME
        );
        let action = policy.choose(&state, legal, &mut rng);
        assert!(
            legal.contains(&action),
            "{who} chose {action:?}, not among {legal:?}, in game {index}:\n{state}"
        );
        state.apply(action, &mut chance);
        decisions += 1;
        assert!(
            decisions <= G::MAX_DECISIONS,
            "{who}: game {index} exceeds {} decisions",
            G::MAX_DECISIONS
        );
    }
}

/// The Wilson score interval (95%, z = 1.96) of `wins` out of `games`.
fn wilson(wins: u64, games: u64) -> (f64, f64) {
    let z = 1.959_963_984_540_054_f64;
    let n = games as f64;
    let p = wins as f64 / n;
    let denom = 1.0 + z * z / n;
    let center = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (center - half, center + half)
}

/// Wins of `policy` over games `0..games` of experiment `seed` on Race from square 0.
fn race_wins(policy: &mut dyn Policy<Race>, who: &str, seed: u64, games: u64) -> u64 {
    let mut legal = Vec::new();
    (0..games)
        .filter(|&i| {
            play::<Race>(&0, policy, who, seed, i, &mut legal)
                .0
                .is_win()
        })
        .count() as u64
}

/// The optimal Race player: walk when walking surely arrives in time, else run.
struct RunWhenBehindPace;

impl Policy<Race> for RunWhenBehindPace {
    fn choose(&mut self, state: &Race, _legal: &[RaceAction], _rng: &mut GameRng) -> RaceAction {
        if state.position + (TURNS - state.turn) >= GOAL {
            RaceAction::Walk
        } else {
            RaceAction::Run
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Every policy plays every game.

/// Plays every strategy in `strategies/` (and every shipped one) on game `G` from many seeds:
/// every choice is legal, every game ends within `G::MAX_DECISIONS` with an outcome in range.
fn policies_play_every_game<G: Game>(setup: G::Setup) {
    let dir = strategies_dir();
    let names = strategy_names(&dir);
    assert!(names.len() >= 4, "{names:?}");
    let mut legal = Vec::new();
    for name in &names {
        let strategy = Strategy::named(name, &dir).unwrap_or_else(|e| panic!("{e}"));
        let mut policy = strategy.build::<G>().unwrap_or_else(|e| panic!("{e}"));
        // Work per decision: iterations x rollout decisions x dice samples. mcts-200's
        // (200 x 6 x 1) plays 20 games; a search with more work plays proportionally fewer
        // (mcts-1000 4, mcts-3000 and the Gods' deep rollouts 1), so the suite stays within
        // its time while every strategy still makes every decision of whole games.
        // A beam search keeping 200 states a depth plays 2 games, wider ones 1 (a Beyond round
        // holds dozens of decisions of ~28 actions each: beam-1000 takes ~25 s a game there).
        let games = match strategy.kind {
            StrategyKind::Mcts { config, .. } => {
                // A beam rollout decision scores about `rollout_width` states where a
                // greedy one scores one: a tenth of its width counts as its factor.
                let beam = match config.rollout {
                    Rollout::Beam => (u64::from(config.rollout_width) / 10).max(1),
                    _ => 1,
                };
                let work = u64::from(config.iterations)
                    * u64::from(config.rollout_depth)
                    * u64::from(config.rollout_samples)
                    * beam;
                (20 * 200 * 6 / work.max(1)).clamp(1, 20)
            }
            StrategyKind::Beam { width, .. } => (400 / u64::from(width)).clamp(1, 20),
            _ => 200,
        } * slow_factor();
        let (mut wins, mut decisions, mut played) = (0u64, 0u64, 0u64);
        for index in 0..games {
            let (outcome, n) = play::<G>(&setup, policy.as_mut(), name, 41, index, &mut legal);
            if let Outcome::Lost(cause) = outcome {
                assert!(
                    (cause as usize) < G::LOSS_CAUSES.len(),
                    "{name}: cause {cause}"
                );
            }
            // A game over before any decision would check no choice of the policy.
            assert!(
                n >= 1,
                "{name} on {}: game {index} had no decision",
                G::NAME
            );
            wins += u64::from(outcome.is_win());
            decisions += u64::from(n);
            played += 1;
        }
        assert_eq!(played, games, "{name} on {}", G::NAME);
        eprintln!(
            "{} {name}: {wins}/{games} won, {:.2} decisions per game",
            G::NAME,
            decisions as f64 / games as f64
        );
    }
}

#[test]
fn every_policy_plays_race() {
    policies_play_every_game::<Race>(0);
}

#[test]
fn every_policy_plays_rift() {
    policies_play_every_game::<Rift>(RiftSetup::default_setup());
}

// ---------------------------------------------------------------------------------------------
// Strength.

#[test]
fn greedy_and_mcts_beat_random_on_race() {
    let dir = strategies_dir();
    let games = 2000 * slow_factor();
    let build = |name: &str| {
        Strategy::named(name, &dir)
            .unwrap()
            .build::<Race>()
            .unwrap()
    };
    let random = race_wins(build("random").as_mut(), "random", 2024, games);
    let greedy = race_wins(build("greedy").as_mut(), "greedy", 2024, games);
    let mcts = race_wins(build("mcts-200").as_mut(), "mcts-200", 2024, games);
    let optimal = race_wins(&mut RunWhenBehindPace, "optimal", 2024, games);
    let [r, g, m, o] = [random, greedy, mcts, optimal].map(|w| wilson(w, games));
    for (who, wins, (lo, hi)) in [
        ("random", random, r),
        ("greedy", greedy, g),
        ("mcts-200", mcts, m),
        ("optimal", optimal, o),
    ] {
        eprintln!(
            "race {who}: {wins}/{games} = {:.3} [{lo:.3}, {hi:.3}]",
            wins as f64 / games as f64
        );
    }
    // The exact win rates (by dynamic programming): random 457/2048, optimal 17/32.
    assert!(r.0 < 457.0 / 2048.0 && 457.0 / 2048.0 < r.1, "random {r:?}");
    assert!(o.0 < 17.0 / 32.0 && 17.0 / 32.0 < o.1, "optimal {o:?}");
    assert!(r.1 < g.0, "greedy {g:?} does not beat random {r:?}");
    assert!(r.1 < m.0, "mcts-200 {m:?} does not beat random {r:?}");
}

// ---------------------------------------------------------------------------------------------
// MCTS and the seed streams.

/// Checks, in `state`, that `policy`'s choice is a function of the state and the policy
/// generator: two calls with clones of `rng` agree and consume it alike, a freshly built policy
/// agrees, and the search draws from the generator it is handed (it advances). Returns the
/// choice.
fn check_choice<G: Game>(
    policy: &mut dyn Policy<G>,
    fresh: &mut dyn Policy<G>,
    state: &G,
    legal: &[G::Action],
    rng: &GameRng,
    what: &str,
) -> G::Action {
    let (mut rng_a, mut rng_b, mut rng_c) = (rng.clone(), rng.clone(), rng.clone());
    let a = policy.choose(state, legal, &mut rng_a);
    assert!(legal.contains(&a), "{what}: {a:?} not legal");
    assert_ne!(
        &rng_a, rng,
        "{what}: the search drew nothing from the policy stream it was handed"
    );
    let b = policy.choose(state, legal, &mut rng_b);
    assert_eq!(
        a, b,
        "{what}: the same state and policy stream gave another choice"
    );
    assert_eq!(
        rng_a, rng_b,
        "{what}: the policy stream was consumed differently"
    );
    assert_eq!(
        fresh.choose(state, legal, &mut rng_c),
        a,
        "{what}: a freshly built policy chose otherwise (state kept between choices)"
    );
    a
}

#[test]
fn mcts_choice_is_a_function_of_the_state_and_the_policy_stream_on_race() {
    let strategy = Strategy::named("mcts-200", &strategies_dir()).unwrap();
    let mut policy = strategy.build::<Race>().unwrap();
    let mut fresh = strategy.build::<Race>().unwrap();
    let mut legal = Vec::new();
    let mut decisions = 0;
    let mut runs = 0;
    let mut differs = 0;
    for index in 0..40u64 {
        let mut state = Race::new_game(&0, &mut stream_rng(9, index, Stream::Setup));
        let mut chance = stream_rng(9, index, Stream::Chance);
        let mut rng = stream_rng(9, index, Stream::Policy);
        // Walk to a decision point with random play, 0 to 4 decisions in.
        for _ in 0..index % 5 {
            state.legal_actions(&mut legal);
            let action = legal[below(&mut rng, legal.len() as u32) as usize];
            state.apply(action, &mut chance);
        }
        if state.outcome().is_some() {
            continue;
        }
        state.legal_actions(&mut legal);
        let what = format!("race game {index}");
        let a = check_choice(policy.as_mut(), fresh.as_mut(), &state, &legal, &rng, &what);
        // Another policy stream may change a close choice: the search's chance comes from it.
        let other = stream_rng(1009, index, Stream::Policy);
        differs += usize::from(policy.choose(&state, &legal, &mut other.clone()) != a);
        decisions += 1;
        runs += usize::from(a == RaceAction::Run);
    }
    assert!(decisions >= 30, "{decisions}");
    // Not a constant answer: from these positions MCTS both walks and runs.
    assert!(runs > 0 && runs < decisions, "{runs} runs of {decisions}");
    assert!(
        differs > 0,
        "no choice of {decisions} changed with the policy stream: the search ignores it"
    );
}

/// Runs [`check_choice`] for `strategy` at Rift decisions reached by 2 to 9 random decisions
/// from the default setup, game `index` of `seed` for `index` in `0..games`, each against a
/// freshly built policy while `policy` keeps whatever it kept from the decisions before.
/// Returns the decisions checked.
fn check_rift_choices(strategy: &Strategy, seed: u64, games: u64) -> usize {
    let mut policy = strategy.build::<Rift>().unwrap();
    let setup = RiftSetup::default_setup();
    let mut legal = Vec::new();
    let mut decisions = 0;
    for index in 0..games {
        let mut state = Rift::new_game(&setup, &mut stream_rng(seed, index, Stream::Setup));
        let mut chance = stream_rng(seed, index, Stream::Chance);
        let mut rng = stream_rng(seed, index, Stream::Policy);
        // Random play to a decision 2 to 9 decisions in.
        for _ in 0..2 + index % 8 {
            state.legal_actions(&mut legal);
            if legal.is_empty() {
                break; // over already: no decision to check here
            }
            let action = legal[below(&mut rng, legal.len() as u32) as usize];
            state.apply(action, &mut chance);
        }
        state.legal_actions(&mut legal);
        if legal.len() < 2 {
            continue;
        }
        let mut fresh = strategy.build::<Rift>().unwrap();
        let what = format!("rift game {index}, {}", strategy.name);
        check_choice(policy.as_mut(), fresh.as_mut(), &state, &legal, &rng, &what);
        decisions += 1;
    }
    decisions
}

#[test]
fn mcts_choice_is_a_function_of_the_state_and_the_policy_stream_on_the_rift() {
    let strategy = Strategy::named("mcts-200", &strategies_dir()).unwrap();
    let decisions = check_rift_choices(&strategy, 5, 24);
    assert!(decisions >= 8, "{decisions}");
}

#[test]
fn beam_rollout_choice_is_a_function_of_the_state_and_the_policy_stream_on_the_rift() {
    // MCTS with beam rollouts (issue 9): the beam plans a Rift turn of both mechs and follows
    // the plan. The choice is still a function of the state and the policy stream, and a
    // policy that has searched other positions chooses as a fresh one does (that each rollout
    // forgets the last one's plan is tested in `policy::beam`).
    let strategy = Strategy::parse(
        "beam-rollouts",
        "beam-rollouts.toml",
        "kind = \"mcts\"\niterations = 24\nexploration = 0.5\nrollout = \"beam\"\n\
         rollout_width = 6\nrollout_depth = 4\nrollout_samples = 2\n[weights.rift]\n\
         buildings = 3.0\nmech_hp = 2.0\nmonster_hp = -1.0\n",
    )
    .unwrap();
    let decisions = check_rift_choices(&strategy, 6, 12);
    assert!(decisions >= 4, "{decisions}");
}

// ---------------------------------------------------------------------------------------------
// Strategy files.

/// A fresh directory for this test's strategy files.
fn scratch_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-policies-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const MCTS_OK: &str = "kind = \"mcts\"\niterations = 10\nexploration = 1.0\nrollout = \"random\"\n\
                       rollout_depth = 5\n[weights.race]\nposition = 1\n";

#[test]
fn each_strategy_file_error_is_one_line_naming_the_file_and_the_key() {
    let dir = scratch_dir("errors");
    let cases: &[(&str, String, &str)] = &[
        (
            "kind",
            "kind = \"mtcs\"\n".into(),
            "key 'kind': unknown kind \"mtcs\" (valid: random, greedy, mcts, beam)",
        ),
        (
            "nokind",
            "iterations = 3\n".into(),
            "key 'kind': missing (required by every strategy)",
        ),
        (
            "unknown",
            MCTS_OK.replace("rollout_depth = 5", "rollout_depth = 5\ndepth = 3"),
            "key 'depth': unknown key for kind \"mcts\" \
             (valid: kind, iterations, exploration, rollout, rollout_depth, rollout_samples, \
             rollout_width, weights, widening, stop_at_chance, see_hidden, clairvoyant, prior_visits, \
             chance_outcomes, tree_depth, rollout_turns)",
        ),
        (
            "random-weights",
            "kind = \"random\"\n[weights.race]\nposition = 1\n".into(),
            "key 'weights': unknown key for kind \"random\" (valid: kind)",
        ),
        (
            "missing",
            MCTS_OK.replace("exploration = 1.0\n", ""),
            "key 'exploration': missing (required by kind \"mcts\")",
        ),
        (
            "greedy-missing",
            "kind = \"greedy\"\n[weights.race]\n".into(),
            "key 'samples': missing (required by kind \"greedy\")",
        ),
        (
            "iterations",
            MCTS_OK.replace("iterations = 10", "iterations = 0"),
            "key 'iterations': 0 is not allowed (expected an integer in 1..=10000000)",
        ),
        (
            "exploration",
            MCTS_OK.replace("exploration = 1.0", "exploration = -0.5"),
            "key 'exploration': -0.5 is not allowed (expected a finite number >= 0)",
        ),
        (
            "depth",
            MCTS_OK.replace("rollout_depth = 5", "rollout_depth = 0"),
            "key 'rollout_depth': 0 is not allowed (expected an integer in 1..=4294967295)",
        ),
        (
            "rollout",
            MCTS_OK.replace("\"random\"", "\"smart\""),
            "key 'rollout': \"smart\" is not allowed \
             (expected \"random\", \"greedy\" or \"beam\")",
        ),
        (
            "rollout-width-without-beam",
            MCTS_OK.replace("rollout_depth = 5", "rollout_depth = 5\nrollout_width = 10"),
            "key 'rollout_width': 10 is not allowed \
             (expected no value unless rollout = \"beam\" (only a beam rollout has a width))",
        ),
        (
            "rollout-width",
            MCTS_OK.replace(
                "rollout = \"random\"\nrollout_depth = 5",
                "rollout = \"beam\"\nrollout_depth = 5\nrollout_width = 0",
            ),
            "key 'rollout_width': 0 is not allowed (expected an integer in 1..=100000)",
        ),
        (
            "beam-rollout-clairvoyant",
            MCTS_OK.replace(
                "rollout = \"random\"\nrollout_depth = 5",
                "rollout = \"beam\"\nrollout_depth = 5\nclairvoyant = true",
            ),
            "key 'rollout': \"beam\" is not allowed (expected \"random\" or \"greedy\" \
             when clairvoyant is true (a beam rollout does not see the true dice))",
        ),
        (
            "type",
            MCTS_OK.replace("iterations = 10", "iterations = \"10\""),
            "key 'iterations': expected an integer, found a string",
        ),
        (
            "prior-visits",
            MCTS_OK.replace("rollout_depth = 5", "rollout_depth = 5\nprior_visits = -1"),
            "key 'prior_visits': -1 is not allowed (expected an integer in 0..=100000)",
        ),
        (
            "prior-and-widening",
            MCTS_OK.replace(
                "rollout_depth = 5",
                "rollout_depth = 5\nprior_visits = 5\nwidening = 1.0",
            ),
            "key 'prior_visits': 5 is not allowed \
             (expected 0 when widening is on (prior_visits and widening exclude each other))",
        ),
        (
            "chance-outcomes",
            MCTS_OK.replace(
                "rollout_depth = 5",
                "rollout_depth = 5\nchance_outcomes = 1001",
            ),
            "key 'chance_outcomes': 1001 is not allowed (expected an integer in 0..=1000)",
        ),
        (
            "tree-depth",
            MCTS_OK.replace("rollout_depth = 5", "rollout_depth = 5\ntree_depth = 0"),
            "key 'tree_depth': 0 is not allowed (expected an integer in 1..=4294967295)",
        ),
        (
            "turns-horizon",
            MCTS_OK.replace(
                "rollout_depth = 5",
                "rollout_depth = 5\nrollout_turns = 1001",
            ),
            "key 'rollout_turns': 1001 is not allowed (expected an integer in 0..=1000)",
        ),
        (
            "chance-and-stop",
            MCTS_OK.replace(
                "rollout_depth = 5",
                "rollout_depth = 5\nchance_outcomes = 4\nstop_at_chance = true",
            ),
            "key 'chance_outcomes': 4 is not allowed (expected 0 when stop_at_chance is true \
             (chance_outcomes and stop_at_chance exclude each other))",
        ),
        (
            "weight-type",
            MCTS_OK.replace("position = 1", "position = \"high\""),
            "key 'weights.race.position': expected a number, found a string",
        ),
    ];
    for (stem, text, expected) in cases {
        let path = dir.join(format!("{stem}.toml"));
        std::fs::write(&path, text).unwrap();
        let e = Strategy::named(stem, &dir).expect_err(stem);
        let message = e.to_string();
        // `FILE:LINE:COL: ...` (the value's place), or `FILE: ...` for a missing key.
        let rest = message
            .strip_prefix(&path.display().to_string())
            .unwrap_or_else(|| panic!("{stem}: {message}"));
        let located = rest.trim_start_matches(|c: char| c == ':' || c.is_ascii_digit());
        assert_eq!(located, format!(" {expected}"), "{stem}: {message}");
        assert!(!message.contains('\n'), "{message}");
    }

    // TOML syntax: file:line:column: message.
    let path = dir.join("syntax.toml");
    std::fs::write(&path, "kind = \"greedy\"\nsamples = = 4\n").unwrap();
    let e = Strategy::named("syntax", &dir).unwrap_err();
    assert!(
        matches!(
            e.kind,
            StrategyErrorKind::Syntax {
                line: 2,
                column: 11,
                ..
            }
        ),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(
        message.starts_with(&format!("{}:2:11: ", path.display())),
        "{message}"
    );
    assert!(!message.contains('\n') && message.len() > path.display().to_string().len() + 8);

    // Feature names are checked when building for a game.
    let path = dir.join("feature.toml");
    std::fs::write(&path, MCTS_OK.replace("position = 1", "speed = 1")).unwrap();
    let e = Strategy::named("feature", &dir)
        .unwrap()
        .build::<Race>()
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:7:9: key 'weights.race.speed': unknown feature of game race (valid: position, turns_left)",
            path.display()
        )
    );
    assert_eq!(e.key(), Some("weights.race.speed"));
    let path = dir.join("nogame.toml");
    std::fs::write(
        &path,
        "kind = \"greedy\"\nsamples = 2\n[weights.rift]\nbuildings = 3\n",
    )
    .unwrap();
    let e = Strategy::named("nogame", &dir)
        .unwrap()
        .build::<Race>()
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: key 'weights.race': missing (required by game race)",
            path.display()
        )
    );

    // An unknown name lists what exists.
    let e = Strategy::named("nope", &dir).unwrap_err();
    assert!(matches!(&e.kind, StrategyErrorKind::NotFound { name, .. } if name == "nope"));
    assert!(e.to_string().contains("(available: "), "{e}");
    assert!(
        e.to_string().contains("greedy, greedy-missing, iterations"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shipped_strategies_load_from_any_directory_and_build_for_race() {
    let dir = strategies_dir();
    let shipped = [
        "beam-1000",
        "beam-200",
        "greedy",
        "mcts-1000",
        "mcts-1000-beyond",
        "mcts-1000-beyond-two-rounds",
        "mcts-1000-buried",
        "mcts-1000-gods",
        "mcts-1000-gods-closed",
        "mcts-1000-gods-flat",
        "mcts-1000-gods-flat-tuned",
        "mcts-1000-gods-prior",
        "mcts-1000-prior",
        "mcts-200",
        "mcts-200-beam",
        "mcts-200-beyond",
        "mcts-200-buried",
        "mcts-200-clairvoyant",
        "mcts-200-gods",
        "mcts-200-gods-closed",
        "mcts-200-gods-flat",
        "mcts-200-gods-prior",
        "mcts-200-prior",
        "mcts-3000",
        "mcts-3000-gods-prior",
        "mcts-beyond",
        "mcts-beyond-cheat",
        "mcts-beyond-deep",
        "mcts-beyond-deep-cheat",
        "mcts-beyond-round",
        "mcts-beyond-round-cheat",
        "random",
    ];
    assert_eq!(strategy_names(Path::new("/nonexistent")), shipped);
    assert_eq!(strategy_names(&dir), shipped);
    for name in shipped {
        let from_file = Strategy::named(name, &dir).unwrap_or_else(|e| panic!("{e}"));
        let built_in = Strategy::named(name, Path::new("/nonexistent")).unwrap();
        assert_eq!(
            from_file.kind, built_in.kind,
            "{name}: the embedded copy differs"
        );
        assert_eq!(from_file.name, name);
        assert_eq!(
            built_in.origin,
            format!("strategies/{name}.toml (built in)")
        );
        assert_eq!(
            from_file.origin,
            dir.join(format!("{name}.toml")).display().to_string()
        );
        let mut policy = from_file.build::<Race>().unwrap_or_else(|e| panic!("{e}"));
        let state = Race {
            position: 9,
            turn: 1,
        };
        let mut rng = stream_rng(1, 0, Stream::Policy);
        let action = policy.choose(&state, &[RaceAction::Walk, RaceAction::Run], &mut rng);
        if name != "random" {
            assert_eq!(action, RaceAction::Walk, "{name} declines a sure win");
        }
    }
}

#[test]
fn a_file_in_the_directory_overrides_the_shipped_strategy() {
    let dir = scratch_dir("override");
    std::fs::write(
        dir.join("random.toml"),
        "kind = \"greedy\"\nsamples = 3\n[weights.race]\n",
    )
    .unwrap();
    let s = Strategy::named("random", &dir).unwrap();
    assert_eq!(s.kind.name(), "greedy");
    assert_eq!(
        strategy_names(&dir),
        [
            "beam-1000",
            "beam-200",
            "greedy",
            "mcts-1000",
            "mcts-1000-beyond",
            "mcts-1000-beyond-two-rounds",
            "mcts-1000-buried",
            "mcts-1000-gods",
            "mcts-1000-gods-closed",
            "mcts-1000-gods-flat",
            "mcts-1000-gods-flat-tuned",
            "mcts-1000-gods-prior",
            "mcts-1000-prior",
            "mcts-200",
            "mcts-200-beam",
            "mcts-200-beyond",
            "mcts-200-buried",
            "mcts-200-clairvoyant",
            "mcts-200-gods",
            "mcts-200-gods-closed",
            "mcts-200-gods-flat",
            "mcts-200-gods-prior",
            "mcts-200-prior",
            "mcts-3000",
            "mcts-3000-gods-prior",
            "mcts-beyond",
            "mcts-beyond-cheat",
            "mcts-beyond-deep",
            "mcts-beyond-deep-cheat",
            "mcts-beyond-round",
            "mcts-beyond-round-cheat",
            "random"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_weight_table_for_a_game_that_does_not_exist_is_refused_at_its_key() {
    let dir = scratch_dir("unknown-game");
    let valid = "(valid: rift, buried, beyond, gods, race)";
    // Beside a real game's table, as every other unknown key is: refused when read, at the
    // table's header, not ignored.
    let path = dir.join("chess.toml");
    std::fs::write(&path, format!("{MCTS_OK}[weights.chess]\npawn = 1\n")).unwrap();
    let e = Strategy::named("chess", &dir).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:8:1: key 'weights.chess': unknown game {valid}",
            path.display()
        )
    );
    assert_eq!(e.key(), Some("weights.chess"));
    assert_eq!(e.at, Some((8, 1)));
    assert!(
        matches!(e.kind, StrategyErrorKind::UnknownGame { .. }),
        "{e:?}"
    );
    // Alone, it is the unknown game that is named (not a missing table of a real game).
    let path = dir.join("only-chess.toml");
    std::fs::write(
        &path,
        "kind = \"greedy\"\nsamples = 2\n[weights.chess]\npawn = 1\n",
    )
    .unwrap();
    assert_eq!(
        Strategy::named("only-chess", &dir).unwrap_err().to_string(),
        format!(
            "{}:3:1: key 'weights.chess': unknown game {valid}",
            path.display()
        )
    );
    // An inline table is placed at its value (as every value error is), a quoted name with a
    // dot included.
    let path = dir.join("inline.toml");
    std::fs::write(
        &path,
        "kind = \"greedy\"\nsamples = 2\nweights = { race = {}, \"go.board\" = { stones = 1 } }\n",
    )
    .unwrap();
    assert_eq!(
        Strategy::named("inline", &dir).unwrap_err().to_string(),
        format!(
            "{}:3:37: key 'weights.go.board': unknown game {valid}",
            path.display()
        )
    );
    // The registry's games and the race fixture are all accepted.
    let path = dir.join("every.toml");
    std::fs::write(
        &path,
        "kind = \"greedy\"\nsamples = 2\n[weights.race]\n[weights.rift]\n[weights.buried]\n\
         [weights.beyond]\n[weights.gods]\n",
    )
    .unwrap();
    Strategy::named("every", &dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_override_that_is_not_a_readable_file_is_an_error_not_the_shipped_strategy() {
    let dir = scratch_dir("not-a-file");
    // A directory where strategies/greedy.toml goes: the override is broken, and said so.
    std::fs::create_dir(dir.join("greedy.toml")).unwrap();
    let e = Strategy::named("greedy", &dir).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: cannot read: is a directory, not a strategy file",
            dir.join("greedy.toml").display()
        )
    );
    assert!(matches!(e.kind, StrategyErrorKind::Read { .. }), "{e:?}");
    // Listed, so that `list strategies` shows it as invalid; so is one of no shipped name.
    std::fs::create_dir(dir.join("mine.toml")).unwrap();
    assert!(strategy_names(&dir).iter().any(|n| n == "mine"));
    assert_eq!(
        Strategy::named("mine", &dir).unwrap_err().to_string(),
        format!(
            "{}: cannot read: is a directory, not a strategy file",
            dir.join("mine.toml").display()
        )
    );
    // A dangling link is an override that cannot be read, too.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("nowhere.toml"), dir.join("beam-200.toml")).unwrap();
        let e = Strategy::named("beam-200", &dir).unwrap_err();
        let shown = e.to_string();
        assert!(
            shown.starts_with(&format!(
                "{}: cannot read: ",
                dir.join("beam-200.toml").display()
            )),
            "{shown}"
        );
    }
    // A folder that is not there, or a file where the folder goes, leaves the shipped ones.
    assert_eq!(
        Strategy::named("greedy", &dir.join("none")).unwrap().origin,
        "strategies/greedy.toml (built in)"
    );
    std::fs::write(dir.join("plain-file"), "").unwrap();
    assert_eq!(
        Strategy::named("greedy", &dir.join("plain-file"))
            .unwrap()
            .origin,
        "strategies/greedy.toml (built in)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_strategy_name_is_a_plain_name_never_a_path() {
    let dir = scratch_dir("names");
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/deep.toml"), "kind = \"random\"\n").unwrap();
    // `dir/../<name>.toml` exists: the name is refused before any file is tried.
    let sibling = format!(
        "{}-sibling",
        dir.file_name().unwrap().to_string_lossy().into_owned()
    );
    let sibling_path = dir.parent().unwrap().join(format!("{sibling}.toml"));
    std::fs::write(&sibling_path, "kind = \"random\"\n").unwrap();
    for name in [
        "sub/deep".to_string(),
        format!("../{sibling}"),
        "../strategies/greedy".to_string(),
        "/etc/passwd".to_string(),
        String::new(),
        ".".to_string(),
        "..".to_string(),
        "my greedy".to_string(),
        "gréedy".to_string(),
    ] {
        let e = Strategy::named(&name, &dir).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "strategy '{name}' must be a plain name, a file stem in strategies/ \
                 (letters, digits, '-', '_', '.')"
            )
        );
        assert!(matches!(e.kind, StrategyErrorKind::BadName { .. }), "{e:?}");
    }
    // Shipped names are plain.
    for name in strategy_names(Path::new("/nonexistent")) {
        assert!(
            sololab::policy::strategy_name_problem(&name).is_none(),
            "{name}"
        );
    }
    std::fs::remove_file(&sibling_path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Allocation.

#[test]
fn no_policy_allocates_per_decision_after_warm_up() {
    let dir = strategies_dir();
    let mut legal = Vec::with_capacity(16);
    for name in strategy_names(&dir) {
        let mut policy = Strategy::named(&name, &dir)
            .unwrap()
            .build::<Race>()
            .unwrap();
        for index in 0..3 {
            play::<Race>(&0, policy.as_mut(), &name, 5, index, &mut legal);
        }
        let mut counted = 0;
        let mut decisions = 0;
        for index in 3..23u64 {
            let mut state = Race::new_game(&0, &mut stream_rng(5, index, Stream::Setup));
            let mut chance = stream_rng(5, index, Stream::Chance);
            let mut rng = stream_rng(5, index, Stream::Policy);
            while state.outcome().is_none() {
                state.legal_actions(&mut legal);
                let before = allocations();
                let action = policy.choose(&state, &legal, &mut rng);
                counted += allocations() - before;
                decisions += 1;
                state.apply(action, &mut chance);
            }
        }
        assert!(decisions >= 20 * 4, "{name}: {decisions}");
        assert_eq!(
            counted, 0,
            "{name} allocated {counted} times in {decisions} decisions"
        );
    }
}

#[test]
fn the_default_search_is_the_shipped_mcts_200s() {
    // `MctsConfig::default()` documents itself as strategies/mcts-200.toml's search: code that
    // builds a configuration by hand starts from it.
    let strategy = Strategy::named("mcts-200", &strategies_dir()).unwrap();
    match strategy.kind {
        StrategyKind::Mcts { config, .. } => {
            assert_eq!(config, sololab::policy::MctsConfig::default());
        }
        ref other => panic!("mcts-200 is not a search: {other:?}"),
    }
}

/// `sololab bench --strength GAME` measures `lab::STRENGTH_STRATEGIES` by default on any game,
/// so each of them builds for every registered game; so does every other shipped strategy
/// whose name does not name another game (`mcts-beyond` carries no Buried or Gods weights). Before
/// this test the default curve failed on three games: mcts-3000 had the Rift's weights alone.
#[test]
fn shipped_strategies_build_for_every_game_they_do_not_name_another_for() {
    use sololab::{GameKind, with_game};
    let dir = strategies_dir();
    for name in sololab::lab::STRENGTH_STRATEGIES {
        assert!(strategy_names(&dir).iter().any(|n| n == name), "{name}");
    }
    let mut built = 0;
    for name in strategy_names(&dir) {
        let s = Strategy::named(&name, &dir).unwrap();
        for kind in GameKind::ALL {
            let names_other = GameKind::ALL
                .iter()
                .any(|k| k.name() != kind.name() && name.contains(k.name()));
            let result = with_game!(*kind, G => s.build::<G>().map(|_| ()));
            match result {
                Ok(()) => built += 1,
                Err(e) => assert!(
                    names_other && !sololab::lab::STRENGTH_STRATEGIES.contains(&name.as_str()),
                    "{name} on {}: {e}",
                    kind.name()
                ),
            }
        }
    }
    // 23 strategies on all four games (mcts-200-buried and mcts-1000-buried carry every
    // game's weights, and so does mcts-200-beam); mcts-beyond, mcts-200-beyond,
    // mcts-1000-beyond, mcts-1000-beyond-two-rounds, mcts-beyond-cheat, mcts-beyond-deep,
    // mcts-beyond-deep-cheat, mcts-beyond-round and mcts-beyond-round-cheat carry Beyond's and
    // the Rift's weights.
    assert_eq!(built, 23 * 4 + 9 * 2);
}
