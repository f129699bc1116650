//! The performance gate itself (`scripts/bench-gate.sh`), run on doctored CSVs in place of a
//! measurement (`BENCH_GATE_NOW`, `BENCH_GATE_BASELINE`): it passes the same counts and small
//! changes, and fails, saying why and what to run, on a regression, a speed-up beyond the limit,
//! a changed step count, a missing or new workload, and a zero count.

use std::path::PathBuf;
use std::process::Command;

const BASELINE: &str = "workload,instructions,steps\n\
                        g/random/100,1000000,5000\n\
                        g/greedy/10,2000000,7000\n";

/// Runs the gate on `baseline` and `now`; returns (exit code, stdout + stderr).
fn gate(test: &str, baseline: &str, now: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("sololab-gate-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (b, n) = (dir.join("baseline.csv"), dir.join("now.csv"));
    std::fs::write(&b, baseline).unwrap();
    std::fs::write(&n, now).unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/bench-gate.sh");
    let out = Command::new("bash")
        .arg(script)
        .env("BENCH_GATE_BASELINE", &b)
        .env("BENCH_GATE_NOW", &n)
        .env_remove("BENCH_GATE_PERCENT")
        .output()
        .expect("run bash scripts/bench-gate.sh");
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().expect("an exit code"), text)
}

fn now(rows: &[(&str, &str, &str)]) -> String {
    let mut s = "workload,instructions,steps\n".to_string();
    for (w, i, st) in rows {
        s.push_str(&format!("{w},{i},{st}\n"));
    }
    s
}

#[test]
fn the_same_counts_and_small_changes_pass() {
    let (code, out) = gate("same", BASELINE, BASELINE);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("g/random/100") && out.contains("ok"), "{out}");
    let (code, out) = gate(
        "small",
        BASELINE,
        &now(&[
            ("g/random/100", "1090000", "5000"),
            ("g/greedy/10", "1820000", "7000"),
        ]),
    );
    assert_eq!(code, 0, "+9% and -9% are within the limit: {out}");
}

#[test]
fn a_regression_beyond_ten_percent_fails() {
    let (code, out) = gate(
        "regression",
        BASELINE,
        &now(&[
            ("g/random/100", "1110000", "5000"),
            ("g/greedy/10", "2000000", "7000"),
        ]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("REGRESSION") && out.contains("+11.00%"),
        "{out}"
    );
}

#[test]
fn a_speed_up_beyond_ten_percent_asks_for_a_baseline_refresh() {
    let (code, out) = gate(
        "faster",
        BASELINE,
        &now(&[
            ("g/random/100", "1000000", "5000"),
            ("g/greedy/10", "1780000", "7000"),
        ]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("g/greedy/10: -11.00%") && out.contains("run scripts/bench-baseline.sh"),
        "{out}"
    );
}

#[test]
fn a_changed_step_count_fails_even_at_the_same_speed() {
    // Same instructions per step (both doubled): different work, not a speed change.
    let (code, out) = gate(
        "steps",
        BASELINE,
        &now(&[
            ("g/random/100", "1000000", "5000"),
            ("g/greedy/10", "2000000", "7001"),
        ]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("g/greedy/10: 7001 steps, baseline 7000")
            && out.contains("different work is not a speed change"),
        "{out}"
    );
}

#[test]
fn a_missing_or_new_workload_fails_and_says_how_to_add_it() {
    let (code, out) = gate(
        "missing",
        BASELINE,
        &now(&[("g/random/100", "1000000", "5000")]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("g/greedy/10: in the baseline but not measured"),
        "{out}"
    );
    let (code, out) = gate(
        "new",
        BASELINE,
        &now(&[
            ("g/random/100", "1000000", "5000"),
            ("g/greedy/10", "2000000", "7000"),
            ("h/random/100", "3000000", "9000"),
        ]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("h/random/100: not in the baseline")
            && out.contains("add it with scripts/bench-baseline.sh"),
        "{out}"
    );
    let (code, out) = gate("nothing", BASELINE, "workload,instructions,steps\n");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("no workload was measured"), "{out}");
}

#[test]
fn a_zero_or_missing_count_fails() {
    for (test, i, s) in [
        ("zero-i", "0", "5000"),
        ("zero-s", "1000000", "0"),
        ("empty", "", "5000"),
    ] {
        let (code, out) = gate(
            test,
            BASELINE,
            &now(&[("g/random/100", i, s), ("g/greedy/10", "2000000", "7000")]),
        );
        assert_eq!(code, 1, "{test}: {out}");
        assert!(
            out.contains("g/random/100: zero or missing count"),
            "{test}: {out}"
        );
    }
    // A zero in the baseline fails too (it would hide any change).
    let (code, out) = gate(
        "zero-base",
        &BASELINE.replace("2000000,7000", "2000000,0"),
        BASELINE,
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("baseline g/greedy/10: zero or missing count"),
        "{out}"
    );
}

#[test]
fn the_committed_baseline_is_well_formed() {
    // Every row of results/bench/baseline.csv passes the gate against itself.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results/bench/baseline.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.lines().count() >= 2, "{text}");
    let (code, out) = gate("committed", &text, &text);
    assert_eq!(code, 0, "{out}");
}
