//! The `sololab` binary end to end: reports from the shipped quickstart, reproducibility across
//! thread counts and seeds, one-line errors with exit status 2 that write nothing, reports that
//! survive an interrupted run, `play` and `list`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_sololab");
const QUICKSTART: &str = "experiments/rift-quickstart.toml";

/// Runs the binary from the crate root (where `experiments/` and `strategies/` are).
fn sololab(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh, empty folder for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs the quickstart with `extra` arguments into `out`, quietly, and returns summary.csv.
fn quickstart(out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["run", QUICKSTART, "--quiet", "--out", path(out)];
    args.extend_from_slice(extra);
    let o = sololab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(out.join("summary.csv")).unwrap()
}

#[test]
fn quickstart_is_identical_on_one_and_two_threads() {
    let dir = temp_dir("threads");
    let one = quickstart(
        &dir.join("one"),
        &["--games", "20", "--threads", "1", "--raw"],
    );
    let two = quickstart(
        &dir.join("two"),
        &["--games", "20", "--threads", "2", "--raw"],
    );
    assert_eq!(one, two);
    let games_one = std::fs::read(dir.join("one/games.csv")).unwrap();
    assert_eq!(games_one, std::fs::read(dir.join("two/games.csv")).unwrap());

    let mut lines = one.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(
            "experiment,game,strategy,extra_turn,games,wins,win_rate,ci_low,ci_high,mean_turns,\
             lost_"
        ),
        "{header}"
    );
    let rows: Vec<&str> = lines.collect();
    let cells = rows.len();
    assert!(cells >= 2 && cells.is_multiple_of(2), "{one}");
    for row in &rows {
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(&f[..2], ["rift-quickstart", "rift"]);
        assert_eq!(f[4], "20");
        let wins: u64 = f[5].parse().unwrap();
        assert_eq!(f[6], format!("{:.4}", wins as f64 / 20.0));
    }
    // games.csv: a header and one row per game.
    assert_eq!(
        String::from_utf8(games_one).unwrap().lines().count(),
        1 + 20 * cells
    );

    let run = std::fs::read_to_string(dir.join("two/run.toml")).unwrap();
    assert!(run.contains("threads = 2\n"), "{run}");
    assert!(
        run.contains("wall_s = ") && run.contains("games_per_s = "),
        "{run}"
    );
    assert!(
        run.contains("[experiment]\nname = \"rift-quickstart\""),
        "{run}"
    );
    assert!(run.contains("games = 20\n"), "{run}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn same_seed_same_report_other_seed_other_report() {
    let dir = temp_dir("seeds");
    let a = quickstart(&dir.join("a"), &["--games", "8", "--seed", "5"]);
    let b = quickstart(&dir.join("b"), &["--games", "8", "--seed", "5"]);
    let c = quickstart(&dir.join("c"), &["--games", "8", "--seed", "6"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes an experiment, runs it into `dir/out`, and checks it fails with one line on stderr
/// containing each of `expected`, exit status 2, and no report folder.
fn rejects(tag: &str, text: &str, expected: &[&str]) {
    let dir = temp_dir(tag);
    let file = dir.join("bad.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.join("out");
    let o = sololab(&["run", path(&file), "--quiet", "--out", path(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in {err}");
    }
    assert!(
        !out.exists(),
        "a rejected experiment wrote {}",
        out.display()
    );
    assert!(stdout(&o).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

const HEAD: &str =
    "name = \"bad\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 5\nseed = 1\n";

#[test]
fn unknown_experiment_key_is_rejected() {
    rejects(
        "key",
        &format!("{HEAD}colour = 3\n"),
        &["bad.toml:6:1:", "unknown field `colour`"],
    );
}

#[test]
fn unknown_axis_is_rejected() {
    rejects(
        "axis",
        &format!("{HEAD}[sweep]\nruinz = [1, 2]\n"),
        &["bad.toml:7:1:", "unknown axis 'ruinz'", "valid: ", "ruins"],
    );
}

#[test]
fn bad_axis_value_is_rejected() {
    rejects(
        "value",
        &format!("{HEAD}[sweep]\nruins = [1, 7]\n"),
        &["bad.toml:7:13:", "'ruins'", "7"],
    );
    rejects(
        "name-value",
        &format!("{HEAD}[setup]\nmech_a = \"Robot\"\n"),
        &["bad.toml:7:10:", "mech_a", "'Robot'", "valid: "],
    );
}

#[test]
fn unknown_game_is_rejected() {
    rejects(
        "game",
        &HEAD.replace("\"rift\"", "\"chess\""),
        &["bad.toml:2:8:", "unknown game 'chess'", "valid: ", "rift"],
    );
}

#[test]
fn unknown_strategy_is_rejected() {
    rejects(
        "strategy",
        &HEAD.replace("[\"random\"]", "[\"random\", \"genius\"]"),
        &[
            "bad.toml:3:25:",
            "unknown strategy 'genius'",
            "valid: ",
            "random",
        ],
    );
}

#[test]
fn toml_syntax_error_is_rejected() {
    rejects(
        "syntax",
        &HEAD.replace("games = 5", "games = = 5"),
        &["bad.toml:4:"],
    );
    rejects(
        "games",
        &HEAD.replace("games = 5", "games = 0"),
        &["bad.toml:4:9:", "games"],
    );
}

#[test]
fn unknown_experiment_name_lists_the_experiments() {
    let o = sololab(&["run", "no-such-experiment", "--quiet"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no experiment 'no-such-experiment'") && err.contains("rift-quickstart"));
}

#[test]
fn failed_and_interrupted_runs_keep_the_previous_report() {
    let dir = temp_dir("interrupted");
    let out = dir.join("out");
    let before = quickstart(&out, &["--games", "4"]);
    let run_before = std::fs::read_to_string(out.join("run.toml")).unwrap();

    // A run that fails validation.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, HEAD.replace("seed = 1", "seed = -1")).unwrap();
    let o = sololab(&["run", path(&bad), "--quiet", "--out", path(&out)]);
    assert_eq!(o.status.code(), Some(2));

    // A run killed while it plays.
    let mut child = Command::new(BIN)
        .args([
            "run",
            QUICKSTART,
            "--quiet",
            "--games",
            "100000000",
            "--out",
            path(&out),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        child.try_wait().unwrap().is_none(),
        "the long run ended early"
    );
    child.kill().unwrap();
    child.wait().unwrap();

    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        before
    );
    assert_eq!(
        std::fs::read_to_string(out.join("run.toml")).unwrap(),
        run_before
    );
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["run.toml", "summary.csv"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_prints_a_table() {
    let dir = temp_dir("table");
    let o = sololab(&["run", QUICKSTART, "--games", "3", "--out", path(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(
        table.starts_with("strategy  extra_turn  games  win_rate"),
        "{table}"
    );
    assert!(table.lines().any(|l| l.starts_with("random ")), "{table}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_prints_states_actions_events_and_the_outcome() {
    let args = [
        "play", "rift", "--policy", "greedy", "--seed", "3", "--set", "ruins=2",
    ];
    let o = sololab(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "== state, turn 0 ==");
    assert!(lines.iter().any(|l| l.starts_with("> ")), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("  ")), "{text}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("outcome: won after ") || last.starts_with("outcome: lost ("),
        "{last}"
    );
    // The same seed plays the same game.
    assert_eq!(stdout(&sololab(&args)), text);
}

#[test]
fn play_rejects_bad_input_with_one_line() {
    let dir = temp_dir("play");
    let pos = dir.join("pos.txt");
    std::fs::write(&pos, "this is not a position\n").unwrap();
    for (args, expected) in [
        (
            vec![
                "play",
                "rift",
                "--policy",
                "random",
                "--position",
                path(&pos),
            ],
            format!("{}:1:", pos.display()),
        ),
        (
            vec!["play", "chess", "--policy", "random"],
            "unknown game 'chess' (valid: ".into(),
        ),
        (
            vec!["play", "rift", "--policy", "genius"],
            "unknown strategy 'genius'".into(),
        ),
        (
            vec!["play", "rift", "--policy", "random", "--set", "ruins=9"],
            "--set ruins=9:".into(),
        ),
        (
            vec!["play", "rift", "--policy", "random", "--set", "ruinz=1"],
            "unknown axis 'ruinz'".into(),
        ),
    ] {
        let o = sololab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&expected), "expected {expected:?} in {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn list_shows_what_exists() {
    let games = stdout(&sololab(&["list", "games"]));
    assert!(games.lines().any(|l| l.starts_with("rift ")), "{games}");
    let strategies = stdout(&sololab(&["list", "strategies"]));
    for s in ["random", "greedy", "mcts-200"] {
        assert!(
            strategies.lines().any(|l| l.starts_with(&format!("{s} "))),
            "{strategies}"
        );
    }
    let experiments = stdout(&sololab(&["list", "experiments"]));
    assert!(
        experiments
            .lines()
            .any(|l| l.starts_with("rift-quickstart ")),
        "{experiments}"
    );
    let axes = stdout(&sololab(&["list", "axes", "rift"]));
    assert!(axes.lines().any(|l| l.starts_with("ruins ")), "{axes}");
    assert!(axes.contains("integer 1..=3"), "{axes}");
    let o = sololab(&["list", "axes", "chess"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bench_prints_one_csv_row_per_game_and_strategy() {
    let o = sololab(&[
        "bench",
        "--csv",
        "--games",
        "4",
        "--strategy",
        "random",
        "--strategy",
        "greedy",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "game,strategy,games,wins,games_per_s_1_thread,threads,games_per_s_n_threads,scaling"
    );
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("rift,random,4,") && lines[2].starts_with("rift,greedy,4,"));
    let o = sololab(&["bench", "--strategy", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown strategy 'nope'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bench_workload_answers_are_reproducible() {
    let answer = || {
        let o = sololab(&["bench", "--workload", "rift/greedy/5"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        out.split(" wall_s=").next().unwrap().to_string()
    };
    let a = answer();
    assert!(a.starts_with("rift/greedy/5 games=5 wins="), "{a}");
    assert_eq!(a, answer());
    let o = sololab(&["bench", "--list-workloads"]);
    assert!(
        stdout(&o).lines().any(|l| l == "rift/mcts-200/3"),
        "{}",
        stdout(&o)
    );
}
