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
fn one_ability_allocation_in_another_order_is_refused() {
    // The Gods read `abilities` in any order: the same build spelt twice would make two
    // identical cells (the game resolves both to one setup).
    let text = "name = \"bad\"\ngame = \"gods\"\nstrategies = [\"random\"]\ngames = 5\nseed = 1\n\
                [sweep]\nabilities = [\"strength=3,aim=2,wits=1,dodge=0\", \
                \"dodge=3,aim=2,wits=1,strength=0\", \"aim=2, strength=3,dodge=0,wits=1\"]\n";
    rejects(
        "abilities",
        text,
        &[
            "bad.toml:7:84:",
            "axis 'abilities': value \"aim=2, strength=3,dodge=0,wits=1\" is the same setting as \
             \"strength=3,aim=2,wits=1,dodge=0\" listed before (the game resolves both to one \
             setup)",
        ],
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
    // Beside the report, the killed run may have left its finished chunks for --resume.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != lab_work())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".sololab-report",
            "outcomes.svg",
            "report.html",
            "run.toml",
            "summary.csv",
            "turns.csv",
            "turns.svg",
            "win-rate-by-extra_turn.svg"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_prints_a_table_fitted_to_the_width() {
    let dir = temp_dir("table");
    let o = Command::new(BIN)
        .args(["run", QUICKSTART, "--games", "3", "--out", path(&dir)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "72")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    let lines: Vec<&str> = table.lines().collect();
    // A header, one line per cell (2 strategies x 2... here 3 x 2), and where the rest is.
    assert_eq!(lines.len(), 1 + 6 + 1, "{table}");
    assert!(
        lines[0].starts_with("strategy  extra_turn  games  win rate  95% interval  main loss"),
        "{table}"
    );
    for line in &lines[..7] {
        assert!(line.chars().count() <= 72, "{line}");
    }
    assert!(lines[1].starts_with("random    false "), "{table}");
    assert!(lines[1].contains("mechs_de…"), "{table}");
    assert!(lines[7].contains("summary.csv") && lines[7].contains("report.html"));
    // Without a width the table has its natural width and names the cause in full.
    let o = Command::new(BIN)
        .args(["run", QUICKSTART, "--games", "3", "--out", path(&dir)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert!(
        stdout(&o)
            .lines()
            .nth(1)
            .unwrap()
            .contains("mechs_destroyed"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_with_an_index_replays_that_game_of_an_experiment() {
    // Every game of a 6-game run (its raw rows) is `play --seed 3 --index I` with its setup.
    let dir = temp_dir("play-index");
    let file = dir.join("e.toml");
    std::fs::write(
        &file,
        "name = \"e\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 6\nseed = 3\n\
         [setup]\nruins = 2\n",
    )
    .unwrap();
    let out = dir.join("out");
    let o = sololab(&["run", path(&file), "--quiet", "--raw", "--out", path(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    let header: Vec<&str> = games.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut outcomes = std::collections::BTreeSet::new();
    for row in games.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let index = f[col("index")];
        let o = sololab(&[
            "play", "rift", "--policy", "random", "--seed", "3", "--index", index, "--set",
            "ruins=2",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        let last = text.lines().last().unwrap();
        let expected = match (f[col("result")], f[col("cause")]) {
            ("won", _) => format!("outcome: won after {} turns", f[col("turns")]),
            (_, cause) => format!("outcome: lost ({cause}) after {} turns", f[col("turns")]),
        };
        assert_eq!(last, expected, "game {index}");
        outcomes.insert(last.to_string());
    }
    assert!(outcomes.len() > 1, "six games, one outcome: {outcomes:?}");
    let o = sololab(&["play", "rift", "--policy", "random", "--index", "-1"]);
    one_line_error(&o, &["'--index <INDEX>'", "0..=9223372036854775807"]);
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

/// A position file of another game gets the same one line in every game
/// (`position_text::header`), naming both games.
#[test]
fn play_names_the_game_of_a_wrong_position_file() {
    let dir = temp_dir("play-wrong-game");
    let games = ["rift", "buried", "beyond", "gods"];
    for from in games {
        let pos = dir.join(format!("{from}.txt"));
        std::fs::write(&pos, format!("# saved by hand\n{from}-position 1\n")).unwrap();
        for to in games.iter().filter(|&&g| g != from) {
            let o = sololab(&["play", to, "--policy", "random", "--position", path(&pos)]);
            assert_eq!(o.status.code(), Some(2), "{from} -> {to}");
            assert_eq!(
                stderr(&o).trim_end(),
                format!(
                    "sololab: error: {}:2: a {from} position, not a {to} one (expected '{to}-position 1')",
                    pos.display()
                ),
                "{from} -> {to}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
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

/// Positions every reader took but the game could not go on from (`play` panicked, exit 101)
/// are refused before the first decision with one line naming the file and the line, exit 2,
/// whatever the policy; a position of a finished game is played as over.
#[test]
fn play_refuses_positions_the_game_cannot_go_on_from() {
    let dir = temp_dir("play-stuck");
    let cases = [
        (
            "buried",
            "flow phase=victim",
            ":2: phase=victim waits on an attacker: a die on the map (mover 0-11) with stage=attack, or the boss (mover=12) with stage=boss_attack (got stage=done mover=-)",
        ),
        (
            "buried",
            "flow phase=target arg=25,13,17",
            ":2: phase=target: arg's first number is the skill being used, 0-2 (got 25)",
        ),
        (
            "buried",
            "flow phase=symbol sym=19,11",
            ":2: phase=symbol sym=19,11: location 19 shows 1 stat symbol (sym=LOC,INDEX counts them from 0)",
        ),
        (
            "buried",
            "flow phase=push arg=28,20,2",
            ":2: phase=push: arg's first number is the location of the villager being driven, and 28 holds none",
        ),
        (
            "buried",
            "flow phase=target",
            ": the position leaves no legal action, and the game is not over",
        ),
        (
            "beyond",
            "game pending=equip:1",
            ":2: pending=equip:1 is a decision of the campaign phase, not of phase=hero",
        ),
        (
            "beyond",
            "game pending=pick_heal:255:3",
            ":2: pending=pick_heal:255:3: the candidates (bit S-1 for enemy slot S) must be enemies in play with a card attached",
        ),
        (
            "beyond",
            "game phase=over",
            ":2: phase=over goes with a result other than 0, and only then",
        ),
        (
            "beyond",
            "game pending=intimidate:1:0",
            ":2: pending=intimidate:1:0: the last number counts the cards still to discard, at least 1",
        ),
        (
            "gods",
            "encounter lone_brute\nscoundrel at=(12.00,20.00)",
            ":3: the Scoundrel at=(12.00,20.00): the base overlaps fateling 1's at (12.00,20.00) (models stop at base contact)",
        ),
    ];
    for (k, (game, body, want)) in cases.iter().enumerate() {
        let pos = dir.join(format!("{k}.pos"));
        std::fs::write(&pos, format!("{game}-position 1\n{body}\n")).unwrap();
        for policy in ["random", "greedy", "mcts-200"] {
            let o = sololab(&["play", game, "--policy", policy, "--position", path(&pos)]);
            one_line_error(&o, &[]);
            assert_eq!(
                stderr(&o).trim_end(),
                format!("sololab: error: {}{want}", pos.display()),
                "{body} with {policy}"
            );
        }
    }
    let pos = dir.join("over.pos");
    std::fs::write(&pos, "buried-position 1\nflow phase=over result=1\n").unwrap();
    let o = sololab(&[
        "play",
        "buried",
        "--policy",
        "random",
        "--position",
        path(&pos),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).lines().last(),
        Some("outcome: won after 1 turns")
    );
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
fn list_experiments_aligns_its_columns_whatever_the_names() {
    let dir = temp_dir("list-experiments");
    std::fs::create_dir(dir.join("experiments")).unwrap();
    let write = |name: &str, game: &str, games: u64, sweep: &str| {
        std::fs::write(
            dir.join(format!("experiments/{name}.toml")),
            format!(
                "name = \"{name}\"\ngame = \"{game}\"\nstrategies = [\"random\"]\n\
                 games = {games}\nseed = 1\n{sweep}"
            ),
        )
        .unwrap();
    };
    write("a-name-much-longer-than-twenty-four", "rift", 5, "");
    write(
        "short",
        "buried",
        2000,
        "[sweep]\nwave_retries = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n",
    );
    write("mid-name", "gods", 30, "");
    let o = sololab_in(&dir, &["list", "experiments"], 20);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    // Every column starts at the same place on every line.
    for column in [" game ", " cells x ", " games  strategies: "] {
        let at: Vec<Option<usize>> = lines.iter().map(|l| l.find(column)).collect();
        assert!(
            at[0].is_some() && at.iter().all(|a| *a == at[0]),
            "{column:?}:\n{text}"
        );
    }
    // Names and games to the left, counts to the right.
    assert!(lines[1].starts_with("mid-name "), "{text}");
    assert!(lines[1].contains(" game gods    ") && lines[1].contains("  1 cells x   30 games"));
    assert!(lines[2].contains(" 10 cells x 2000 games"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
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
        "game,strategy,games,wins,games_per_s_1_thread,threads,games_per_s_n_threads,scaling,setup"
    );
    // One row per registered game and strategy, in registry order.
    let games = sololab::GameKind::ALL;
    assert_eq!(lines.len(), 1 + 2 * games.len(), "{out}");
    for (i, g) in games.iter().enumerate() {
        let name = g.name();
        assert!(
            lines[1 + 2 * i].starts_with(&format!("{name},random,4,")),
            "{out}"
        );
        assert!(
            lines[2 + 2 * i].starts_with(&format!("{name},greedy,4,")),
            "{out}"
        );
    }
    let o = sololab(&["bench", "--strategy", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown strategy 'nope'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bench_measures_a_setup_given_with_set() {
    // Beyond with 4 heroes: the row names the setup, and its games are not the default
    // setup's (2 heroes), which win a different number of the same seeded games.
    let row = |set: &[&str]| {
        let mut args = vec![
            "bench",
            "--csv",
            "--games",
            "40",
            "--strategy",
            "greedy",
            "--game",
            "beyond",
        ];
        args.extend_from_slice(set);
        let o = sololab(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).lines().nth(1).unwrap().to_string()
    };
    let four = row(&["--set", "heroes=4"]);
    assert!(four.starts_with("beyond,greedy,40,"), "{four}");
    assert!(four.ends_with(",heroes=4"), "{four}");
    let default = row(&[]);
    assert!(default.ends_with(','), "{default}");
    let wins = |r: &str| r.split(',').nth(3).unwrap().to_string();
    let two = row(&["--set", "heroes=2"]);
    assert_eq!(wins(&two), wins(&default), "heroes=2 is the default setup");
    assert_ne!(wins(&four), wins(&default), "{four} / {default}");
    // Bad values: one line naming the flag, exit 2.
    let o = sololab(&["bench", "--game", "beyond", "--set", "heroes=9"]);
    one_line_error(&o, &["--set heroes=9", "1-4"]);
    let o = sololab(&["bench", "--game", "beyond", "--set", "nope=1"]);
    one_line_error(&o, &["--set nope=1", "nope"]);
    let o = sololab(&["bench", "--set", "heroes=4"]);
    assert_eq!(o.status.code(), Some(2), "--set needs --game");
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

/// Runs the binary in `dir`, killing it after `secs` seconds (`None` for the status then).
fn sololab_in(dir: &Path, args: &[&str], secs: u64) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(secs) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

/// Checks that `o` failed with exit status 2 and one line on stderr, `sololab: error: ...`,
/// containing each of `expected`, and printed nothing on stdout.
fn one_line_error(o: &Output, expected: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("sololab: error: "), "{err}");
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in {err}");
    }
    assert!(stdout(o).is_empty(), "{}", stdout(o));
}

#[test]
fn huge_games_are_refused_not_wrapped() {
    let dir = temp_dir("huge-games");
    let out = dir.join("out");
    // 6 cells x 3074457345618258603 wraps around u64 to 2 games.
    let o = sololab(&[
        "run",
        QUICKSTART,
        "--quiet",
        "--games",
        "3074457345618258603",
        "--out",
        path(&out),
    ]);
    one_line_error(
        &o,
        &[
            "'--games <GAMES>'",
            "3074457345618258603",
            "1..=1000000000000",
        ],
    );
    assert!(!out.exists());
    // 18 cells x 10^12 games: each cell is allowed, the total is not.
    let file = dir.join("wide.toml");
    std::fs::write(
        &file,
        HEAD.replace("[\"random\"]", "[\"random\", \"greedy\", \"mcts-200\"]")
            + "[sweep]\nruins = [1, 2, 3]\nextra_turn = [false, true]\n",
    )
    .unwrap();
    let o = sololab(&[
        "run",
        path(&file),
        "--quiet",
        "--games",
        "1000000000000",
        "--out",
        path(&out),
    ]);
    one_line_error(
        &o,
        &[
            "--games 1000000000000: 18 cells × 1000000000000 games per cell is more than the \
             10000000000000 games a run may play",
        ],
    );
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // In the file, up to i64::MAX.
    rejects(
        "huge-file-games",
        &HEAD.replace("games = 5", "games = 9223372036854775807"),
        &["bad.toml:4:9: games = 9223372036854775807: at most 1000000000000 games per cell"],
    );
}

#[test]
fn too_many_threads_are_refused() {
    let dir = temp_dir("threads-limit");
    let out = dir.join("out");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args = [
        "run",
        QUICKSTART,
        "--quiet",
        "--games",
        "1",
        "--threads",
        "100000",
        "--out",
        path(&out),
    ];
    one_line_error(
        &sololab_in(root, &args, 20),
        &["'--threads <THREADS>'", "100000", "0..=1024"],
    );
    assert!(!out.exists());
    let o = sololab_in(root, &["bench", "--threads", "5000", "--games", "1"], 20);
    one_line_error(&o, &["'--threads <THREADS>'", "0..=1024"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn command_line_errors_are_one_line() {
    for (args, expected) in [
        (
            vec!["run", QUICKSTART, "--games", "0"],
            vec![
                "invalid value '0' for '--games <GAMES>'",
                "1..=1000000000000",
            ],
        ),
        (
            vec!["run", QUICKSTART, "--games", "abc"],
            vec![
                "invalid value 'abc' for '--games <GAMES>'",
                "not an integer",
            ],
        ),
        (
            vec!["run", QUICKSTART, "--seed", "-1"],
            vec![
                "invalid value '-1' for '--seed <SEED>'",
                "0..=9223372036854775807",
            ],
        ),
        (
            vec![
                "play",
                "rift",
                "--policy",
                "random",
                "--position",
                "X",
                "--set",
                "ruins=1",
            ],
            vec!["'--position <POSITION>' cannot be used with '--set <KEY=VALUE>'"],
        ),
        (
            vec!["run", QUICKSTART, "--bogus"],
            vec!["unexpected argument '--bogus'", "sololab run --help"],
        ),
        (
            vec!["run", QUICKSTART, "--quite"],
            vec!["unexpected argument '--quite'", "did you mean '--quiet'"],
        ),
        (
            vec!["run"],
            vec!["required arguments were not provided: <EXPERIMENT>"],
        ),
        (vec!["frob"], vec!["unrecognized subcommand 'frob'"]),
        (
            vec![],
            vec![
                "needs a command (valid: run, play, list, bench, fit, tune, calibrate, sensitivity, merge, status, report, completions, man)",
            ],
        ),
        (
            vec!["list"],
            vec![
                "'sololab list' needs a command (valid: games, strategies, experiments, axes, values)",
            ],
        ),
    ] {
        let o = sololab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        one_line_error(&o, &expected);
    }
    // Help and version stay as they are, on stdout, with status 0.
    let o = sololab(&["run", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("Usage: sololab run [OPTIONS] <EXPERIMENT>"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).lines().count() > 5);
    let o = sololab(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        format!(
            "sololab {} (commit {})\n",
            env!("CARGO_PKG_VERSION"),
            sololab::lab::BUILD_COMMIT
        )
    );
}

#[test]
fn seeds_agree_between_the_flag_and_the_file() {
    let o = sololab(&[
        "run",
        QUICKSTART,
        "--quiet",
        "--seed",
        "18446744073709551615",
    ]);
    one_line_error(
        &o,
        &[
            "invalid value '18446744073709551615' for '--seed <SEED>'",
            "0..=9223372036854775807",
        ],
    );
    let o = sololab(&[
        "play",
        "rift",
        "--policy",
        "random",
        "--seed",
        "9223372036854775808",
    ]);
    one_line_error(&o, &["'--seed <SEED>'", "0..=9223372036854775807"]);

    // The largest seed is recorded in run.toml as a seed the loader accepts, and the recorded
    // experiment, run again, gives the same report.
    let dir = temp_dir("max-seed");
    let first = quickstart(
        &dir.join("a"),
        &["--games", "2", "--seed", "9223372036854775807"],
    );
    let run = std::fs::read_to_string(dir.join("a/run.toml")).unwrap();
    let start = run.find("[experiment]\n").unwrap() + "[experiment]\n".len();
    let end = run.find("\n[strategies.").unwrap();
    let recorded = run[start..end].replace("[experiment.", "[");
    assert!(
        recorded.contains("seed = 9223372036854775807\n"),
        "{recorded}"
    );
    let file = dir.join("recorded.toml");
    std::fs::write(&file, recorded).unwrap();
    let again = dir.join("b");
    let o = sololab(&["run", path(&file), "--quiet", "--out", path(&again)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(again.join("summary.csv")).unwrap(),
        first
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_toml_records_the_strategies_and_a_local_file_overrides_a_shipped_one() {
    let dir = temp_dir("override");
    std::fs::create_dir(dir.join("strategies")).unwrap();
    std::fs::write(
        dir.join("strategies/greedy.toml"),
        "kind = \"greedy\"\nsamples = 2\n[weights.rift]\nruins_left = 1.5\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("strategies/broken.toml"),
        "kind = \"greedy\"\nsamples = 2\n[weights.rift]\nnonsense = 1.0\n",
    )
    .unwrap();
    let file = dir.join("two.toml");
    std::fs::write(
        &file,
        HEAD.replace("[\"random\"]", "[\"greedy\", \"random\"]"),
    )
    .unwrap();
    let o = sololab_in(&dir, &["run", path(&file), "--quiet", "--out", "out"], 120);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = std::fs::read_to_string(dir.join("out/run.toml")).unwrap();
    assert!(
        run.contains(
            "[strategies.greedy]\norigin = \"strategies/greedy.toml\"\nkind = \"greedy\"\n\
             samples = 2\n\n[strategies.greedy.weights.rift]\nruins_left = 1.5\n"
        ),
        "{run}"
    );
    assert!(
        run.contains("[strategies.random]\norigin = \"built in\"\nkind = \"random\"\n"),
        "{run}"
    );

    // `list strategies` shows where each comes from, and a file that does not build as invalid.
    let o = sololab_in(&dir, &["list", "strategies"], 20);
    assert!(o.status.success(), "{}", stderr(&o));
    let list = stdout(&o);
    let line = |name: &str| {
        list.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {list}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // The kind column starts at one offset on every line, whatever the names' lengths.
    let offsets: std::collections::BTreeSet<usize> = list
        .lines()
        .map(|l| {
            let rest = &l[l.find(' ').unwrap()..];
            l.len() - rest.trim_start().len()
        })
        .collect();
    assert_eq!(offsets.len(), 1, "{list}");
    assert_eq!(line("greedy"), "greedy greedy strategies/greedy.toml");
    assert_eq!(
        line("random"),
        "random random strategies/random.toml (built in)"
    );
    assert!(
        line("broken").starts_with(
            "broken invalid: strategies/broken.toml:4:12: key 'weights.rift.nonsense': unknown \
             feature of game rift"
        ),
        "{list}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_override_and_a_weight_table_for_no_game_are_refused() {
    let dir = temp_dir("broken-strategies");
    // A directory where strategies/greedy.toml goes, a file that also weighs chess, and one
    // that weighs chess alone.
    std::fs::create_dir_all(dir.join("strategies/greedy.toml")).unwrap();
    std::fs::write(
        dir.join("strategies/chessy.toml"),
        "kind = \"greedy\"\nsamples = 2\n[weights.rift]\nruins_left = 1.5\n[weights.chess]\n\
         pawn = 1\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("strategies/only-chess.toml"),
        "kind = \"greedy\"\nsamples = 2\n[weights.chess]\npawn = 1\n",
    )
    .unwrap();
    let games = "(valid: rift, buried, beyond, gods, race)";

    let o = sololab_in(&dir, &["list", "strategies"], 20);
    assert!(o.status.success(), "{}", stderr(&o));
    let list = stdout(&o);
    let line = |name: &str| {
        list.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in {list}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(
        line("greedy"),
        "greedy invalid: strategies/greedy.toml: cannot read: is a directory, not a strategy file"
    );
    assert_eq!(
        line("chessy"),
        format!(
            "chessy invalid: strategies/chessy.toml:5:1: key 'weights.chess': unknown game {games}"
        )
    );
    assert_eq!(
        line("only-chess"),
        format!(
            "only-chess invalid: strategies/only-chess.toml:3:1: key 'weights.chess': unknown \
             game {games}"
        )
    );

    // `run` refuses each at the experiment's strategy, one line, exit 2, nothing written.
    for (strategy, expected) in [
        (
            "greedy",
            "strategy 'greedy': strategies/greedy.toml: cannot read: is a directory, not a \
             strategy file"
                .to_string(),
        ),
        (
            "chessy",
            format!(
                "strategy 'chessy': strategies/chessy.toml:5:1: key 'weights.chess': unknown \
                 game {games}"
            ),
        ),
    ] {
        std::fs::write(
            dir.join("exp.toml"),
            HEAD.replace("[\"random\"]", &format!("[\"{strategy}\"]")),
        )
        .unwrap();
        let o = sololab_in(&dir, &["run", "exp.toml", "--quiet", "--out", "out"], 20);
        one_line_error(
            &o,
            &[&format!("sololab: error: exp.toml:3:15: {expected}\n")],
        );
        assert!(!dir.join("out").exists(), "{strategy}");
        // `play --policy` says the same of the file.
        let o = sololab_in(&dir, &["play", "rift", "--policy", strategy], 20);
        one_line_error(&o, &[&format!("--policy {strategy}: {expected}")]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_strategy_name_that_is_a_path_is_refused_in_the_experiment_and_on_the_command_line() {
    // From the crate root `strategies/../strategies/greedy.toml` is a file, which an unchecked
    // name would read.
    let bad = "../strategies/greedy";
    let why = format!(
        "strategy '{bad}' must be a plain name, a file stem in strategies/ (letters, digits, \
         '-', '_', '.')"
    );
    rejects(
        "strategy-path",
        &HEAD.replace("[\"random\"]", &format!("[\"random\", \"{bad}\"]")),
        &[&format!("bad.toml:3:25: {why}")],
    );
    // `list experiments` shows it as invalid, as any other bad experiment.
    let dir = temp_dir("strategy-path-list");
    std::fs::create_dir(dir.join("experiments")).unwrap();
    std::fs::write(
        dir.join("experiments/bad.toml"),
        HEAD.replace("[\"random\"]", &format!("[\"{bad}\"]")),
    )
    .unwrap();
    let o = sololab_in(&dir, &["list", "experiments"], 20);
    assert!(o.status.success(), "{}", stderr(&o));
    let listed = stdout(&o).split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(
        listed,
        format!("bad invalid: experiments/bad.toml:3:15: {why}")
    );

    // Every flag that names a strategy goes through the same check, before anything is
    // played or written.
    let out = dir.join("out");
    let file = dir.join("out.toml");
    for (args, prefix) in [
        (
            vec!["play", "rift", "--policy", bad],
            format!("--policy {bad}: "),
        ),
        (
            vec!["bench", "--games", "1", "--strategy", bad],
            "rift: ".to_string(),
        ),
        (
            vec![
                "bench",
                "--strength",
                "rift",
                "--games",
                "1",
                "--strategy",
                bad,
                "--strength-out",
                path(&out),
            ],
            "rift: ".to_string(),
        ),
        (
            vec![
                "fit",
                "rift",
                "--strategy",
                bad,
                "--games",
                "2",
                "--out",
                path(&file),
            ],
            String::new(),
        ),
        (
            vec![
                "fit",
                "rift",
                "--strategy",
                "greedy",
                "--like",
                bad,
                "--games",
                "2",
                "--out",
                path(&file),
            ],
            String::new(),
        ),
        (
            vec![
                "tune",
                "rift",
                "--strategy",
                bad,
                "--games",
                "2",
                "--out",
                path(&file),
            ],
            String::new(),
        ),
        (
            vec![
                "calibrate",
                "rift-calibrate-hp",
                "--strategy",
                bad,
                "--value",
                "ruins",
                "--target",
                "0.5",
                "--games",
                "2",
                "--quiet",
                "--out",
                path(&out),
            ],
            format!("--strategy {bad}: "),
        ),
        (
            vec![
                "sensitivity",
                "rift-sensitivity",
                "--strategy",
                bad,
                "--games",
                "2",
                "--quiet",
                "--out",
                path(&out),
            ],
            format!("--strategy {bad}: "),
        ),
    ] {
        let o = sololab(&args);
        one_line_error(&o, &[&format!("sololab: error: {prefix}{why}\n")]);
        assert!(!out.exists() && !file.exists(), "{args:?} wrote");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn content_files_resolve_against_the_experiment_folder() {
    let dir = temp_dir("content");
    std::fs::create_dir(dir.join("exp")).unwrap();
    let cards = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/rift/content/rift.toml");
    std::fs::copy(&cards, dir.join("exp/cards.toml")).unwrap();
    let file = dir.join("exp/c.toml");
    std::fs::write(&file, format!("{HEAD}[setup]\ncontent = \"cards.toml\"\n")).unwrap();
    // Run from the crate root: cards.toml is not in the current directory.
    let out = dir.join("out");
    let o = sololab(&["run", path(&file), "--quiet", "--out", path(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // run.toml records the name as the experiment writes it, not the resolved path (which
    // depends on the folder the run started from).
    let run = std::fs::read_to_string(out.join("run.toml")).unwrap();
    assert!(
        run.contains("[experiment.setup]\ncontent = \"cards.toml\"\n"),
        "{run}"
    );
    assert!(!run.contains(&dir.display().to_string()), "{run}");
    // A missing one is named as resolved.
    std::fs::write(&file, format!("{HEAD}[setup]\ncontent = \"nope.toml\"\n")).unwrap();
    let o = sololab(&["run", path(&file), "--quiet", "--out", path(&out)]);
    one_line_error(&o, &[&format!("{}", dir.join("exp/nope.toml").display())]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn error_messages_say_what_is_wrong_once() {
    // A string for an integer axis is quoted and called a string.
    rejects(
        "string-int",
        &format!("{HEAD}[setup]\nruins = \"3\"\n"),
        &["bad.toml:7:9: axis 'ruins': \"3\" is a string, expected an integer in 1..=3"],
    );
    // A directory is said to be one.
    let dir = temp_dir("messages");
    let o = sololab(&["run", path(&dir), "--quiet"]);
    one_line_error(
        &o,
        &[&format!(
            "{}: is a directory, not an experiment file",
            dir.display()
        )],
    );
    // An OS error is given once.
    let file = dir.join("file");
    std::fs::write(&file, "").unwrap();
    let out = file.join("out");
    let o = sololab(&[
        "run",
        QUICKSTART,
        "--quiet",
        "--games",
        "1",
        "--out",
        path(&out),
    ]);
    one_line_error(
        &o,
        &[&format!(
            "{}: cannot create the report folder: ",
            out.display()
        )],
    );
    assert_eq!(stderr(&o).matches("(os error").count(), 1, "{}", stderr(&o));
    // A key given twice with --set.
    let o = sololab(&[
        "play", "rift", "--policy", "random", "--set", "ruins=1", "--set", "ruins=2",
    ]);
    one_line_error(
        &o,
        &["--set ruins=2: axis 'ruins' is given twice (first as --set ruins=1)"],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn readme_lists_the_rift_metrics() {
    // The README's report section lists rift's metrics; it must follow METRICS when they change.
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("<!-- rift metrics -->\n")
        .expect("README marks the list");
    let end = readme
        .find("<!-- end rift metrics -->")
        .expect("README marks its end");
    let listed: Vec<&str> = readme[start..end]
        .lines()
        .skip(1)
        .map(|l| l.split('`').nth(1).unwrap_or(l))
        .collect();
    assert_eq!(
        listed,
        sololab::games::rift::METRICS,
        "update README.md's list of rift metrics to sololab::games::rift::METRICS"
    );
    assert!(readme.contains("| `mean_turns` | turns per game; for `rift` in campaign mode"));
}

/// The work area's name inside a report folder.
fn lab_work() -> &'static str {
    sololab::lab::WORK
}

#[test]
fn report_rebuilds_the_page_of_a_report_folder_and_run_can_skip_it() {
    let dir = temp_dir("report");
    let out = dir.join("out");
    let summary = quickstart(&out, &["--games", "6", "--raw"]);
    let page = std::fs::read_to_string(out.join("report.html")).unwrap();
    let svg = std::fs::read_to_string(out.join("outcomes.svg")).unwrap();
    assert!(page.contains("<table id=\"metrics\">") && page.matches("<svg").count() == 3);
    // The page of a --raw run has the turn histogram (from games.csv).
    assert!(page.contains("The distribution of game length"), "{page}");
    // Rebuilt from the folder: the same bytes, the other files untouched.
    std::fs::remove_file(out.join("report.html")).unwrap_or(());
    let o = sololab(&["report", path(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("wrote "), "{}", stdout(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("report.html")).unwrap(),
        page
    );
    assert_eq!(
        std::fs::read_to_string(out.join("outcomes.svg")).unwrap(),
        svg
    );
    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        summary
    );
    assert!(out.join("games.csv").is_file());
    // turns.csv holds the exact histograms games.csv gives, so the page does not need
    // games.csv: without it (the marker still lists it) the page is the same bytes, and the
    // new marker no longer lists it.
    let cells = summary.lines().count() - 1;
    let games = std::fs::File::open(out.join("games.csv")).unwrap();
    let from_games =
        sololab::lab::turn_histograms_from_games_csv(games, cells, Path::new("g")).unwrap();
    let turns = std::fs::read_to_string(out.join("turns.csv")).unwrap();
    assert!(
        turns.starts_with("cell,strategy,extra_turn,turns,games\n"),
        "{turns}"
    );
    let from_turns =
        sololab::lab::turn_histograms_from_turns_csv(&turns, cells, Path::new("t")).unwrap();
    assert_eq!(from_turns, from_games);
    assert_eq!(from_turns.iter().flatten().sum::<u64>(), 6 * cells as u64);
    std::fs::remove_file(out.join("games.csv")).unwrap();
    let o = sololab(&["report", path(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(out.join("report.html")).unwrap(),
        page
    );
    let marker = std::fs::read_to_string(out.join(".sololab-report")).unwrap();
    assert!(
        marker.contains("turns.csv") && !marker.contains("games.csv"),
        "{marker}"
    );
    // --no-report writes the CSVs and run.toml only.
    let bare = dir.join("bare");
    quickstart(&bare, &["--games", "2", "--no-report"]);
    let mut names: Vec<String> = std::fs::read_dir(&bare)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [".sololab-report", "run.toml", "summary.csv", "turns.csv"]
    );
    // Not a report, a broken summary: one line, nothing written.
    one_line_error(&sololab(&["report", path(&dir.join("none"))]), &["none"]);
    std::fs::write(bare.join("summary.csv"), "strategy\n").unwrap();
    one_line_error(
        &sololab(&["report", path(&bare)]),
        &["summary.csv: no column 'games'"],
    );
    assert!(!bare.join("report.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every file of folder `dir` (name and bytes), sorted by name.
fn folder_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read(e.path()).unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn report_refuses_a_summary_whose_numbers_disagree_and_leaves_the_folder_untouched() {
    let dir = temp_dir("report-numbers");
    let out = dir.join("out");
    let summary = quickstart(&out, &["--games", "2", "--no-report"]);
    let header: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    // Rewrites column `name` of the first row (line 2) to `value`.
    let doctored = |name: &str, value: &str| {
        let mut lines: Vec<String> = summary.lines().map(str::to_string).collect();
        let mut row: Vec<&str> = lines[1].split(',').collect();
        row[col(name)] = value;
        lines[1] = row.join(",");
        lines.join("\n") + "\n"
    };
    let file = out.join("summary.csv");
    for (name, value, what) in [
        ("wins", "3", "column 'wins' is 3, more than the 2 games"),
        (
            "win_rate",
            "NaN",
            "column 'win_rate' is 'NaN', not a number",
        ),
        ("ci_high", "1.5", "column 'ci_high' is 1.5, outside 0..=1"),
    ] {
        std::fs::write(&file, doctored(name, value)).unwrap();
        let before = folder_files(&out);
        one_line_error(
            &sololab(&["report", path(&out)]),
            &[&format!("{}:2: {what}", file.display())],
        );
        assert_eq!(folder_files(&out), before, "{name}={value}");
        assert!(!out.join("report.html").exists());
    }
    // The file as sololab wrote it makes the page.
    std::fs::write(&file, &summary).unwrap();
    let o = sololab(&["report", path(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("report.html").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn completions_and_the_man_page_come_from_the_command_line_definitions() {
    let o = sololab(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let bash = stdout(&o);
    assert!(
        bash.contains("_sololab()") && bash.contains("--no-report"),
        "{bash}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = sololab(&["completions", shell]);
        assert!(
            o.status.success() && stdout(&o).contains("report"),
            "{shell}"
        );
    }
    one_line_error(&sololab(&["completions", "tcsh"]), &["tcsh"]);
    let o = sololab(&["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let man = stdout(&o);
    assert!(
        man.starts_with(".ie") || man.contains(".TH sololab 1"),
        "{man}"
    );
    assert!(
        man.contains(".TH sololab 1") && man.contains("report"),
        "{man}"
    );
    // The pages the main page lists (sololab-run(1), ...) exist: `man COMMAND`.
    assert!(man.contains("sololab\\-run(1)"), "{man}");
    let o = sololab(&["man", "run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = stdout(&o);
    assert!(
        run.contains(".TH sololab-run 1") && run.contains("\\-\\-resume"),
        "{run}"
    );
    one_line_error(
        &sololab(&["man", "nope"]),
        &["no command 'nope'", "run, play"],
    );
}

/// The pages a man page refers to: every `sololab-NAME(1)` in its text (roff's `\-` read as
/// `-`), NAME in lower case (`sololab-COMMAND(1)` is a placeholder, not a page).
fn man_references(page: &str) -> Vec<String> {
    let text = page.replace("\\-", "-");
    let mut names = Vec::new();
    for (at, _) in text.match_indices("sololab-") {
        let rest = &text[at + "sololab-".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect();
        if !name.is_empty() && rest[name.len()..].starts_with("(1)") {
            names.push(name);
        }
    }
    names
}

#[test]
fn every_page_a_man_page_refers_to_is_printed_by_sololab_man() {
    // From the main page, every sololab-NAME(1) any page names is the page `sololab man`
    // prints for NAME's words (`list-games`: `sololab man list games`).
    let mut todo = vec![String::new()];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(name) = todo.pop() {
        let mut args = vec!["man"];
        args.extend(name.split('-').filter(|w| !w.is_empty()));
        let o = sololab(&args);
        assert!(o.status.success(), "sololab man {name}: {}", stderr(&o));
        let page = stdout(&o);
        let title = if name.is_empty() {
            "sololab".to_string()
        } else {
            format!("sololab-{name}")
        };
        assert!(page.contains(&format!(".TH {title} 1 ")), "{name}: {page}");
        for reference in man_references(&page) {
            if seen.insert(reference.clone()) {
                todo.push(reference);
            }
        }
    }
    for page in [
        "run",
        "list",
        "list-games",
        "list-values",
        "help",
        "list-help",
        "man",
    ] {
        assert!(seen.contains(page), "{page} not referred to: {seen:?}");
    }
    // The page's own name is a way to ask for it too, and `man help` is the help command's page.
    let o = sololab(&["man", "list-games"]);
    assert_eq!(stdout(&o), stdout(&sololab(&["man", "list", "games"])));
    assert!(stdout(&o).contains("sololab list games"), "{}", stdout(&o));
    let help = stdout(&sololab(&["man", "help"]));
    assert!(
        help.contains(".TH sololab-help 1 ") && help.contains("sololab help"),
        "{help}"
    );
    one_line_error(
        &sololab(&["man", "list", "nope"]),
        &["no command 'list nope'", "list games"],
    );
}
