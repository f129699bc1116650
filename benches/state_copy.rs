//! State copies per second, per game in the registry (issue 5): what a search pays to copy its
//! root each iteration. States are `Copy` values (a Rift state is 256 bytes), so a copy is a
//! `memcpy`.
//!
//! Each iteration copies every one of a few thousand sampled states ([`sample_states`]) into
//! one slot, through [`black_box`] so the copy cannot be elided, and asserts that the last copy
//! equals its source; the state's size in bytes is a committed answer
//! (`results/bench/answers.csv`).

use std::hint::black_box;

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sololab::lab::sample_states;
use sololab::{Game, GameKind, SetupValues, with_game};

const STATES: usize = 4000;

fn state_copy(c: &mut Criterion) {
    let mut group = c.benchmark_group("state_copy");
    group.throughput(Throughput::Elements(STATES as u64));
    for &kind in GameKind::ALL {
        with_game!(kind, G => {
            let setup = G::resolve_setup(&SetupValues::new()).expect("default setup");
            let states = sample_states::<G>(&setup, STATES, 5);
            let bytes = std::mem::size_of::<G>();
            common::check_answer(kind.name(), "state_copy", "state", "bytes", bytes as u64);
            let mut slot = states[0];
            group.bench_with_input(BenchmarkId::new(kind.name(), format!("{bytes}B")), &states, |b, states| {
                b.iter(|| {
                    for s in states {
                        slot = *black_box(s);
                        black_box(&mut slot);
                    }
                    assert!(slot == states[STATES - 1], "a copy equals its source");
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, state_copy);
criterion_main!(benches);
