//! Legal-action generation per second, per game in the registry (issue 5).
//!
//! Each iteration lists the legal actions of the same few thousand states met along seeded
//! random playouts ([`sample_states`]) into one reused buffer, and asserts the total number of
//! actions listed equals the committed answer (`results/bench/answers.csv`).

use std::hint::black_box;

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sololab::lab::sample_states;
use sololab::{Game, GameKind, SetupValues, with_game};

const STATES: usize = 4000;

/// Lists the legal actions of every state; returns how many there were in all.
fn list_all<G: Game>(states: &[G], legal: &mut Vec<G::Action>) -> u64 {
    let mut total = 0;
    for s in states {
        black_box(s).legal_actions(legal);
        total += legal.len() as u64;
    }
    total
}

fn legal_actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_actions");
    group.throughput(Throughput::Elements(STATES as u64));
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let setup = G::resolve_setup(&SetupValues::new()).expect("default setup");
            let states = sample_states::<G>(&setup, STATES, 5);
            let mut legal = Vec::with_capacity(256);
            let expected = list_all::<G>(&states, &mut legal);
            assert!(expected >= STATES as u64, "every unfinished state has an action");
            let workload = format!("sampled/seed5/{STATES}");
            common::check_answer(kind.name(), "legal_actions", &workload, "actions", expected);
            group.bench_with_input(BenchmarkId::new(kind.name(), "sampled"), &states, |b, states| {
                b.iter(|| {
                    let total = list_all::<G>(states, &mut legal);
                    assert_eq!(total, expected, "same states, same actions");
                    total
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, legal_actions);
criterion_main!(benches);
