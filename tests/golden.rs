//! Golden playthroughs: `sololab play` of fixed seeds must print exactly the committed traces in
//! `tests/golden/`. A rules or trace change shows up here as a diff; after a deliberate change,
//! regenerate them with `scripts/regen-golden.sh` and review the diff.

use std::process::Command;

fn check(args: &[&str], golden: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_sololab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run sololab");
    assert!(
        out.status.success(),
        "sololab {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = String::from_utf8(out.stdout).unwrap();
    let path = format!("{}/tests/golden/{golden}", env!("CARGO_MANIFEST_DIR"));
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| got.lines().count().min(want.lines().count()));
        panic!(
            "{golden} differs from `sololab {}` at line {}:\n  golden: {:?}\n  now:    {:?}\n(after a deliberate change: scripts/regen-golden.sh)",
            args.join(" "),
            line + 1,
            want.lines().nth(line).unwrap_or(""),
            got.lines().nth(line).unwrap_or("")
        );
    }
}

/// Every line of `tests/golden/MANIFEST` (`<golden file> <sololab arguments...>`; `#`
/// comments and blank lines skipped): the games' traces, one table for every game.
#[test]
fn manifest_traces() {
    let path = format!("{}/tests/golden/MANIFEST", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut checked = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let golden = words.next().unwrap();
        let args: Vec<&str> = words.collect();
        assert!(!args.is_empty(), "{path}: no arguments for {golden}");
        check(&args, golden);
        checked += 1;
    }
    assert!(checked >= 2, "{path} lists {checked} traces");
}

#[test]
fn rift_random_seed_7() {
    check(
        &["play", "rift", "--policy", "random", "--seed", "7"],
        "rift-random-seed7.txt",
    );
}

#[test]
fn rift_random_seed_11() {
    check(
        &["play", "rift", "--policy", "random", "--seed", "11"],
        "rift-random-seed11.txt",
    );
}

#[test]
fn rift_campaign_greedy_seed_1() {
    // Greedy wins game 1 here, so the trace shows the rewards and the second game.
    check(
        &[
            "play",
            "rift",
            "--policy",
            "greedy",
            "--seed",
            "1",
            "--set",
            "mode=campaign",
        ],
        "rift-campaign-greedy-seed1.txt",
    );
}
