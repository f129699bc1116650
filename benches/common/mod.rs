//! The benchmarks' committed answers: `results/bench/answers.csv`, one row per game, bench,
//! workload and answer (`game,bench,workload,answer,value`). Each bench computes its answer
//! (games won, simulated steps, legal actions listed...) and checks it against the committed
//! value, not against a reference pass of the same code, so a change that makes a bench do
//! different work fails even when it is consistent with itself. `cargo bench -- --test` (in
//! `.ci/run`) runs every bench once and so checks every answer.
//!
//! A game added to the registry has no rows yet: its benches fail with the lines to add. With
//! `BENCH_ANSWERS=print` in the environment, each answer is printed as its CSV line instead of
//! checked (to write a new game's rows, after checking the values by hand).

use std::path::Path;

/// The committed answers file, relative to the crate root.
pub const ANSWERS: &str = "results/bench/answers.csv";

/// Checks that `bench`'s `answer` for `game` on `workload` is `value`, the committed one.
///
/// # Panics
/// When the file or the row is missing (saying which line to add) or the value differs (saying
/// what changed and how to update it on purpose).
pub fn check_answer(game: &str, bench: &str, workload: &str, answer: &str, value: u64) {
    let line = format!("{game},{bench},{workload},{answer},{value}");
    if std::env::var("BENCH_ANSWERS").as_deref() == Ok("print") {
        eprintln!("answer: {line}");
        return;
    }
    // `SOLOLAB_BENCH_GAMES` (space-separated names) narrows the check to those games, for a game
    // whose rows are not committed yet; its answers are printed, unchecked.
    if let Ok(games) = std::env::var("SOLOLAB_BENCH_GAMES")
        && !games.split_whitespace().any(|g| g == game)
    {
        eprintln!("answer (unchecked, {game} not in SOLOLAB_BENCH_GAMES): {line}");
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(ANSWERS);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (the benches' committed answers)", path.display()));
    let key = [game, bench, workload, answer];
    let committed = text.lines().skip(1).find_map(|l| {
        let f: Vec<&str> = l.split(',').collect();
        (f.len() == 5 && f[..4] == key).then(|| f[4].to_string())
    });
    let Some(committed) = committed else {
        panic!(
            "{ANSWERS} has no answer for {game} / {bench} / {workload} / {answer}: this run \
             computed {value}. A new game or workload adds its rows: check the value by hand \
             (or against the rulebook's cases), then add the line\n{line}"
        );
    };
    assert_eq!(
        committed.parse::<u64>().ok(),
        Some(value),
        "{game} / {bench} / {workload}: {answer} is {value}, committed {committed}: the bench \
         does different work (the rules, the content or a policy changed). If that is meant, \
         say why in the commit and set the line in {ANSWERS} to\n{line}"
    );
}

/// FNV-1a of `text`: a short committed digest of a list of choices.
#[allow(dead_code)]
pub fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
