//! The runner's cost (issue 3): the same seeded random Rift games played by a bare loop on one
//! thread, by `run_experiment` on 1 thread (the runner's overhead: target at most 5%), and by
//! `run_experiment` on 2 threads (scaling: target at least 1.8x). Each asserts that all three
//! won exactly the games committed in `results/bench/answers.csv`.

use std::path::Path;

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sololab::games::rift::Rift;
use sololab::lab::{Experiment, Plan, RunOptions, play_game, policy_factory, run_experiment};
use sololab::{Game, Strategy};

const GAMES: u64 = 20_000;
const SEED: u64 = 9;

fn bare_loop(setup: &<Rift as Game>::Setup) -> u64 {
    let mut policy = Strategy::named("random", Path::new("strategies"))
        .unwrap()
        .build::<Rift>()
        .unwrap();
    let mut legal = Vec::with_capacity(256);
    let mut wins = 0;
    for i in 0..GAMES {
        let g: Rift = play_game(setup, policy.as_mut(), SEED, i, &mut legal);
        wins += u64::from(g.outcome().is_some_and(|o| o.is_win()));
    }
    wins
}

fn runner(c: &mut Criterion) {
    let text = format!(
        "name = \"runner-bench\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = {GAMES}\nseed = {SEED}\n"
    );
    let experiment = Experiment::parse(&text, "benches/runner.rs").unwrap();
    let plan = Plan::<Rift>::new(experiment, |name| {
        policy_factory::<Rift>(name, Path::new("strategies"))
    })
    .unwrap();
    let setup = plan.cells[0].setup.clone();
    let reference = bare_loop(&setup);
    common::check_answer(
        "rift",
        "runner",
        &format!("random/seed{SEED}/{GAMES}"),
        "wins",
        reference,
    );
    let mut group = c.benchmark_group("runner");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("rift", "bare_loop_1_thread"), |b| {
        b.iter(|| assert_eq!(bare_loop(&setup), reference))
    });
    for threads in [1usize, 2] {
        group.bench_function(
            BenchmarkId::new("rift", format!("run_experiment_{threads}_thread")),
            |b| {
                b.iter(|| {
                    let report = run_experiment(
                        &plan,
                        &RunOptions {
                            threads,
                            raw: false,
                        },
                    );
                    assert_eq!(
                        report.cells[0].totals.wins, reference,
                        "same games as the bare loop"
                    );
                    assert_eq!(report.cells[0].totals.games, GAMES);
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, runner);
criterion_main!(benches);
