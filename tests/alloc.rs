//! The hot path allocates nothing: after warm-up, playing whole games with the random policy
//! (setup, legal actions into a reused buffer, apply, outcome, metrics) makes no heap
//! allocation, and neither do greedy, MCTS and beam decisions (search, rollouts, look-ahead) on
//! every registered game. A counting global allocator proves it (issues 5 and 9).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use sololab::lab::BENCH_SEED;
use sololab::policy::RandomPolicy;
use sololab::{Game, GameKind, Policy, SetupValues, Strategy, Stream, stream_rng, with_game};

struct Counting;

thread_local! {
    /// Only the test's own thread counts (the harness's threads, and the other tests running
    /// at the same time, allocate on their own).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations counted on this thread.
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCS.with(|n| n.set(n.get() + 1));
    }
}

/// Allocations counted on this thread so far.
fn allocs() -> u64 {
    ALLOCS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Plays random games `seeds`; returns how many ended with an outcome after at least one
/// decision (so a count below the number of seeds means some game did not really run).
fn play_many<G: Game>(
    setup: &G::Setup,
    seeds: std::ops::Range<u64>,
    acts: &mut Vec<G::Action>,
    metrics: &mut [i64],
) -> u64 {
    let mut policy = RandomPolicy;
    let mut played = 0;
    for i in seeds {
        let mut srng = stream_rng(11, i, Stream::Setup);
        let mut crng = stream_rng(11, i, Stream::Chance);
        let mut prng = stream_rng(11, i, Stream::Policy);
        let mut g = G::new_game(setup, &mut srng);
        let mut decisions = 0u32;
        loop {
            g.legal_actions(acts);
            if acts.is_empty() {
                break;
            }
            let a = Policy::<G>::choose(&mut policy, &g, acts, &mut prng);
            g.apply(a, &mut crng);
            decisions += 1;
        }
        g.metrics(metrics);
        played += u64::from(g.outcome().is_some() && decisions > 0);
    }
    played
}

#[test]
fn random_games_allocate_nothing_after_warm_up() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            for mode in ["game", "campaign"] {
                let mut values = SetupValues::new();
                if G::axes().iter().any(|a| a.name == "mode") {
                    values.insert("mode".into(), sololab::AxisValue::Name(mode.into()));
                }
                let setup = G::resolve_setup(&values).unwrap();
                let mut acts = Vec::with_capacity(1024);
                let mut metrics = vec![0i64; G::METRIC_NAMES.len()];
                play_many::<G>(&setup, 0..200, &mut acts, &mut metrics);
                let before = allocs();
                COUNTING.with(|c| c.set(true));
                let finished = play_many::<G>(&setup, 200..2200, &mut acts, &mut metrics);
                COUNTING.with(|c| c.set(false));
                let after = allocs();
                assert_eq!(after - before, 0, "{} ({mode}): {} allocations in 2000 games", kind.name(), after - before);
                assert_eq!(finished, 2000, "{} ({mode}): every game ran to its end", kind.name());
            }
        });
    }
}

/// Plays games `seeds` with `policy`; returns (decisions, allocations during them). Counting
/// covers everything after setup: legal actions, the policy's choice, apply.
fn count_decisions<G: Game>(
    setup: &G::Setup,
    policy: &mut dyn Policy<G>,
    seeds: std::ops::Range<u64>,
    acts: &mut Vec<G::Action>,
) -> (u64, u64) {
    let (mut decisions, mut counted) = (0, 0);
    for i in seeds {
        let before_game = decisions;
        let mut g = G::new_game(setup, &mut stream_rng(BENCH_SEED, i, Stream::Setup));
        let mut crng = stream_rng(BENCH_SEED, i, Stream::Chance);
        let mut prng = stream_rng(BENCH_SEED, i, Stream::Policy);
        let before = allocs();
        COUNTING.with(|c| c.set(true));
        loop {
            g.legal_actions(acts);
            if acts.is_empty() {
                break;
            }
            let a = policy.choose(&g, acts, &mut prng);
            g.apply(a, &mut crng);
            decisions += 1;
        }
        COUNTING.with(|c| c.set(false));
        counted += allocs() - before;
        assert!(g.outcome().is_some(), "game {i} ended without an outcome");
        assert!(decisions > before_game, "game {i} had no decision");
    }
    (decisions, counted)
}

#[test]
fn greedy_mcts_and_beam_decisions_allocate_nothing_after_warm_up() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    // (strategy, warm-up games, counted games): MCTS-200 costs about 0.1 s a Rift game and
    // seconds a Buried game (every evaluation previews the enemies' turn).
    // mcts-200-closed: mcts-200 with closed-loop chance, the greedy prior and a tree depth
    // (issue 9), whose outcome states and rankings have arenas of their own.
    // mcts-1000-at-300: mcts-1000's configuration (progressive widening, whose children are
    // added as visits grow) at 300 iterations, so the suite stays within its time (mcts-1000
    // itself took 24 s of a Buried game and 27 s of Beyond's here). Two warm-up games: after
    // one, Beyond's next game still grew an arena once in 577 decisions (a high-water mark
    // not yet reached, not an allocation per decision).
    // beam-50: beam-200 at width 50 (the same search, re-planning and chance samples; a
    // Beyond game of beam-200 takes about 5 s), whose record and candidate buffers grow to a
    // high-water mark and are then reused.
    let plan = [
        ("greedy", 10, 60),
        ("mcts-200", 2, 3),
        ("mcts-1000-at-300", 2, 1),
        ("mcts-200-closed", 2, 3),
        ("beam-50", 4, 2),
    ];
    let mcts_200 = std::fs::read_to_string(dir.join("mcts-200.toml")).unwrap();
    let closed = mcts_200.replacen(
        "rollout_depth = 6",
        "rollout_depth = 6\nchance_outcomes = 8\nprior_visits = 5\ntree_depth = 12\nrollout_turns = 2",
        1,
    );
    assert_ne!(closed, mcts_200, "mcts-200.toml's rollout_depth line moved");
    let closed = Strategy::parse("mcts-200-closed", "tests/alloc.rs", &closed).unwrap();
    let mcts_1000 = std::fs::read_to_string(dir.join("mcts-1000.toml")).unwrap();
    let at_300 = mcts_1000.replacen("iterations = 1000", "iterations = 300", 1);
    assert_ne!(at_300, mcts_1000, "mcts-1000.toml's iterations line moved");
    assert!(
        at_300.contains("widening"),
        "mcts-1000 searches with progressive widening"
    );
    let at_300 = Strategy::parse("mcts-1000-at-300", "tests/alloc.rs", &at_300).unwrap();
    let beam_200 = std::fs::read_to_string(dir.join("beam-200.toml")).unwrap();
    let beam_50 = beam_200.replacen("width = 200", "width = 50", 1);
    assert_ne!(beam_50, beam_200, "beam-200.toml's width line moved");
    let beam_50 = Strategy::parse("beam-50", "tests/alloc.rs", &beam_50).unwrap();
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let setup = G::resolve_setup(&SetupValues::new()).unwrap();
            for (name, warm, counted_games) in plan {
                let strategy = match name {
                    "mcts-200-closed" => closed.clone(),
                    "mcts-1000-at-300" => at_300.clone(),
                    "beam-50" => beam_50.clone(),
                    _ => Strategy::named(name, &dir).unwrap(),
                };
                let mut policy = strategy.build::<G>().unwrap();
                let mut acts = Vec::with_capacity(1024);
                count_decisions::<G>(&setup, policy.as_mut(), 0..warm, &mut acts);
                let (decisions, allocations) = count_decisions::<G>(
                    &setup,
                    policy.as_mut(),
                    warm..warm + counted_games,
                    &mut acts,
                );
                assert_eq!(
                    allocations, 0,
                    "{} {name}: {allocations} allocations in {decisions} decisions after warm-up",
                    kind.name()
                );
            }
        });
    }
}
