//! Greedy games per second, per game in the registry (issue 5).
//!
//! Each iteration replays the same batch of seeded games (games `0..BATCH` of
//! [`BENCH_SEED`](sololab::lab::BENCH_SEED), default setup) with the shipped `greedy` strategy
//! through the runner's own [`play_game`], and asserts that every game finished with the wins
//! and turns committed in `results/bench/answers.csv`, so a fast wrong result cannot pass.

use std::hint::black_box;
use std::path::Path;

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sololab::lab::{BENCH_SEED, play_game};
use sololab::{Game, GameKind, Outcome, Policy, SetupValues, Strategy, with_game};

const BATCH: u64 = 50;

/// Plays games `0..BATCH`; returns (finished, wins, turns).
fn batch<G: Game>(
    setup: &G::Setup,
    policy: &mut dyn Policy<G>,
    legal: &mut Vec<G::Action>,
) -> (u64, u64, u64) {
    let (mut finished, mut wins, mut turns) = (0, 0, 0);
    for i in 0..BATCH {
        let end = play_game::<G>(setup, policy, BENCH_SEED, i, legal);
        if let Some(o) = end.outcome() {
            finished += 1;
            wins += u64::from(o == Outcome::Won);
            turns += u64::from(end.turns());
        }
    }
    (finished, wins, turns)
}

fn greedy_games(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let strategy = Strategy::named("greedy", &dir).expect("shipped strategy");
    let mut group = c.benchmark_group("greedy_games");
    group.throughput(Throughput::Elements(BATCH));
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let setup = G::resolve_setup(&SetupValues::new()).expect("default setup");
            let mut policy = strategy.build::<G>().expect("weights for every game");
            let mut legal = Vec::with_capacity(256);
            let expected = batch::<G>(&setup, policy.as_mut(), &mut legal);
            assert_eq!(expected.0, BATCH, "every game must finish");
            let workload = format!("greedy/bench_seed/0..{BATCH}");
            common::check_answer(kind.name(), "greedy", &workload, "wins", expected.1);
            common::check_answer(kind.name(), "greedy", &workload, "turns", expected.2);
            group.bench_with_input(BenchmarkId::new(kind.name(), "greedy"), &setup, |b, setup| {
                b.iter(|| {
                    let answer = batch::<G>(black_box(setup), policy.as_mut(), &mut legal);
                    assert_eq!(answer, expected, "same seeds, same games");
                    answer
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, greedy_games);
criterion_main!(benches);
