//! Full random games per second, per game in the registry (issue 2; issue 5 extends the set).
//! Each iteration plays a fixed batch of seeded games and asserts they all finished; the first
//! batch's wins are checked against the committed answer (`results/bench/answers.csv`), so a
//! fast wrong result cannot pass.

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sololab::{Game, GameKind, SetupValues, Stream, below, stream_rng, with_game};
use std::hint::black_box;

const BATCH: u64 = 1000;

/// Plays `BATCH` random games from seeds `first..first + BATCH`; returns (finished, wins).
fn random_batch<G: Game>(setup: &G::Setup, first: u64, acts: &mut Vec<G::Action>) -> (u64, u64) {
    let (mut finished, mut wins) = (0, 0);
    for i in first..first + BATCH {
        let mut srng = stream_rng(1, i, Stream::Setup);
        let mut crng = stream_rng(1, i, Stream::Chance);
        let mut prng = stream_rng(1, i, Stream::Policy);
        let mut g = G::new_game(setup, &mut srng);
        loop {
            g.legal_actions(acts);
            if acts.is_empty() {
                break;
            }
            let a = acts[below(&mut prng, acts.len() as u32) as usize];
            g.apply(a, &mut crng);
        }
        if let Some(o) = g.outcome() {
            finished += 1;
            wins += u64::from(o.is_win());
        }
    }
    (finished, wins)
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(BATCH));
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let setup = G::resolve_setup(&SetupValues::new()).expect("default setup");
            let mut acts = Vec::with_capacity(256);
            let (finished, wins) = random_batch::<G>(&setup, 0, &mut acts);
            assert_eq!(finished, BATCH, "every game must finish");
            common::check_answer(kind.name(), "games", "random/seed1/0..1000", "wins", wins);
            let mut first = 0u64;
            group.bench_with_input(BenchmarkId::new(kind.name(), "random"), &setup, |b, setup| {
                b.iter(|| {
                    let (finished, _wins) = random_batch::<G>(black_box(setup), first, &mut acts);
                    assert_eq!(finished, BATCH, "every game must finish");
                    first += BATCH;
                    finished
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, random_games);
criterion_main!(benches);
