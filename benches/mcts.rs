//! MCTS iterations and simulated game steps per second, per game in the registry (issue 5).
//!
//! Each measurement runs `mcts-200` decisions from a fixed set of mid-game positions (sampled
//! from seeded random playouts) with fixed policy seeds, and asserts that every decision picks
//! the same action and simulates the same number of steps as a reference pass: a search that
//! got faster by doing less, or different, work fails. A step is one `apply` inside the search:
//! tree descent, rollouts and the greedy look-ahead inside rollouts, counted by
//! [`Counted`](sololab::lab::Counted).

use std::hint::black_box;
use std::path::Path;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sololab::lab::{Counted, reset_steps, sample_states, steps};
use sololab::policy::Rollout;
use sololab::{
    Game, GameKind, Policy, SetupValues, Strategy, StrategyKind, Stream, stream_rng, with_game,
};

const ITERATIONS: u64 = 200;
/// Decisions per measured batch.
const POSITIONS: usize = 6;

/// `POSITIONS` unfinished states with a real choice (two legal actions or more), spread over
/// the first few hundred states of random playouts.
fn positions<G: Game>(setup: &G::Setup) -> Vec<(G, Vec<G::Action>)> {
    let mut legal = Vec::new();
    sample_states::<G>(setup, 600, 9)
        .into_iter()
        .step_by(37)
        .filter_map(|s| {
            s.legal_actions(&mut legal);
            (legal.len() > 1).then(|| (s, legal.clone()))
        })
        .take(POSITIONS)
        .collect()
}

/// One decision per position, policy seeds fixed; returns the actions chosen.
fn decide<G: Game>(
    policy: &mut dyn Policy<G>,
    positions: &[(G, Vec<G::Action>)],
) -> Vec<G::Action> {
    positions
        .iter()
        .enumerate()
        .map(|(i, (s, legal))| {
            let mut rng = stream_rng(3, i as u64, Stream::Policy);
            policy.choose(black_box(s), legal, &mut rng)
        })
        .collect()
}

/// The shipped `mcts-200` (greedy rollouts), the same search with random rollouts (cheap
/// rollouts, so the tree's own work weighs more), and with progressive widening.
fn strategies() -> Vec<(&'static str, Strategy)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let shipped = Strategy::named("mcts-200", &dir).expect("shipped strategy");
    let mut random = shipped.clone();
    match &mut random.kind {
        StrategyKind::Mcts { config, .. } => {
            assert_eq!(u64::from(config.iterations), ITERATIONS);
            config.rollout = Rollout::Random;
        }
        other => panic!("mcts-200 is {other:?}"),
    }
    // The widened search of mcts-1000 and mcts-3000 at this budget: ranking a node's
    // candidates by greedy's values costs one greedy decision per ranked node.
    let mut widened = shipped.clone();
    if let StrategyKind::Mcts { config, .. } = &mut widened.kind {
        config.widening = 1.0;
        config.exploration = 0.3;
    }
    vec![
        ("mcts-200", shipped),
        ("mcts-200-random-rollouts", random),
        ("mcts-200-widened", widened),
    ]
}

fn mcts(c: &mut Criterion) {
    for &kind in GameKind::ALL {
        for (name, strategy) in strategies() {
            with_game!(kind, G => {
                type C = Counted<G>;
                let setup = G::resolve_setup(&SetupValues::new()).expect("default setup");
                let states: Vec<(C, Vec<_>)> = positions::<G>(&setup)
                    .into_iter()
                    .map(|(s, l)| (Counted(s), l))
                    .collect();
                assert_eq!(states.len(), POSITIONS, "{}: not enough positions", kind.name());
                let mut policy = strategy.build::<C>().expect("weights for every game");
                reset_steps();
                let expected = decide::<C>(policy.as_mut(), &states);
                let expected_steps = steps();

                let mut group = c.benchmark_group("mcts_iterations");
                group.throughput(Throughput::Elements(ITERATIONS * POSITIONS as u64));
                group.bench_function(BenchmarkId::new(kind.name(), name), |b| {
                    b.iter(|| {
                        let chosen = decide::<C>(policy.as_mut(), &states);
                        assert_eq!(chosen, expected, "same positions and seeds, same choices");
                    })
                });
                group.finish();

                let mut group = c.benchmark_group("mcts_steps");
                group.throughput(Throughput::Elements(expected_steps));
                group.bench_function(BenchmarkId::new(kind.name(), name), |b| {
                    b.iter(|| {
                        reset_steps();
                        let chosen = decide::<C>(policy.as_mut(), &states);
                        assert_eq!(chosen, expected, "same positions and seeds, same choices");
                        assert_eq!(steps(), expected_steps, "same search, same number of steps");
                    })
                });
                group.finish();
                eprintln!(
                    "{} {name}: {} steps per {} iterations ({:.1} per iteration)",
                    kind.name(),
                    expected_steps,
                    ITERATIONS * POSITIONS as u64,
                    expected_steps as f64 / (ITERATIONS * POSITIONS as u64) as f64
                );
            });
        }
    }
}

criterion_group!(benches, mcts);
criterion_main!(benches);
