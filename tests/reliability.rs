//! Reliability (issue 8): each test is named after a fault that was found and closes that kind
//! of fault for every command. Most spawn the real binary, since the faults were in it: two
//! runs on one report folder, signals during a run, non-UTF-8 arguments, worker threads that
//! cannot start, the recorded commit, unusable report folders, `--raw` memory, axis columns,
//! folders sololab did not write, byte-order marks, a closed standard output, and messages.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use sololab::games::race::Race;
use sololab::lab::{self, Experiment, GameRow, Plan, RAW_CHUNK, RowSink, RunOptions};
use sololab::{GameKind, with_game};

const BIN: &str = env!("CARGO_BIN_EXE_sololab");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A fresh, empty folder for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-rel-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn command<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut c = Command::new(BIN);
    c.args(args).current_dir(ROOT).stdin(Stdio::null());
    c
}

fn sololab<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    command(args).output().expect("the binary runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Checks that `o` failed with exit status 2 and one line on stderr containing each of
/// `expected`, with no panic.
fn one_line_error(o: &Output, expected: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("sololab: error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in {err}");
    }
}

/// A random-strategy Rift experiment: `cells` cells (extra_turn false/true, or one) of `games`.
fn experiment(dir: &Path, name: &str, games: u64, sweep: &str) -> PathBuf {
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(
        &file,
        format!(
            "name = \"{name}\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = {games}\n\
             seed = 5\n{sweep}"
        ),
    )
    .unwrap();
    file
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Waits until `parent` holds a staging folder (the run has opened its report folder and is
/// playing), or panics after 20 s.
fn wait_for_staging(parent: &Path, child: &mut Child) {
    let start = Instant::now();
    let staged = || parent.is_dir() && names(parent).iter().any(|n| n.starts_with(".sololab-"));
    while !staged() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no staging folder"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// A long run (10^9 games) into `out`, started in the background.
fn long_run(dir: &Path, out: &Path) -> Child {
    let file = experiment(dir, "long", 1_000_000_000, "");
    command(["run", p(&file), "--quiet", "--raw", "--out", p(out)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// A finished small run into `out`; returns its summary.csv.
fn small_run(dir: &Path, out: &Path, seed_games: u64) -> String {
    let file = experiment(
        dir,
        "small",
        seed_games,
        "[sweep]\nextra_turn = [false, true]\n",
    );
    let o = sololab(["run", p(&file), "--quiet", "--out", p(out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::read_to_string(out.join("summary.csv")).unwrap()
}

#[test]
fn two_runs_on_one_report_folder_never_mix() {
    let dir = temp_dir("two-runs");
    let out = dir.join("out");
    let before = small_run(&dir, &out, 7);
    let run_before = std::fs::read_to_string(out.join("run.toml")).unwrap();

    let mut first = long_run(&dir, &out);
    wait_for_staging(&dir, &mut first);
    // The second run on the same folder is refused at once with one line naming the lock.
    let second = experiment(&dir, "second", 3, "");
    let o = sololab(["run", p(&second), "--quiet", "--out", p(&out)]);
    one_line_error(&o, &[p(&out), "locked", "another sololab run"]);
    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        before
    );

    signal(&first, "TERM");
    first.wait().unwrap();
    // The lock is gone with the first run; a new run replaces the whole report.
    let after = small_run(&dir, &out, 9);
    assert_ne!(after, before);
    let run_after = std::fs::read_to_string(out.join("run.toml")).unwrap();
    assert_ne!(run_after, run_before);
    assert!(run_after.contains("games = 9\n"), "{run_after}");
    assert!(after.contains(",9,"), "{after}");
    assert_eq!(
        names(&dir),
        ["long.toml", "out", "second.toml", "small.toml"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_signal_during_a_run_leaves_the_previous_report_and_no_debris() {
    for (signal_name, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let dir = temp_dir(&format!("signal-{signal_name}"));
        let out = dir.join("out");
        let before = small_run(&dir, &out, 5);
        let listing = names(&out);

        let mut child = long_run(&dir, &out);
        wait_for_staging(&dir, &mut child);
        signal(&child, signal_name);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        assert!(stderr(&o).contains("the report folder is as it was"));
        assert_eq!(
            std::fs::read_to_string(out.join("summary.csv")).unwrap(),
            before
        );
        assert_eq!(names(&out), listing);
        assert_eq!(names(&dir), ["long.toml", "out", "small.toml"]);

        // A folder the run created (and the folders above it) are removed too.
        let fresh = dir.join("new").join("deeper").join("out");
        let mut child = long_run(&dir, &fresh);
        wait_for_staging(&dir.join("new").join("deeper"), &mut child);
        signal(&child, signal_name);
        child.wait().unwrap();
        assert!(!dir.join("new").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_killed_run_leaves_the_report_and_its_staging_folder_is_removed_by_the_next() {
    let dir = temp_dir("killed");
    let out = dir.join("out");
    let before = small_run(&dir, &out, 4);
    let mut child = long_run(&dir, &out);
    wait_for_staging(&dir, &mut child);
    child.kill().unwrap(); // SIGKILL: no handler runs
    child.wait().unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        before
    );
    assert_eq!(
        names(&out),
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
    assert!(names(&dir).iter().any(|n| n.starts_with(".sololab-")));
    small_run(&dir, &out, 4);
    assert_eq!(names(&dir), ["long.toml", "out", "small.toml"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_latin1_argument_is_an_error_or_a_path_never_a_panic() {
    let dir = temp_dir("latin1");
    let latin1 = |s: &[u8]| OsStr::from_bytes(s).to_os_string();
    // As a folder name it is a path like any other.
    let out = dir.join(latin1(b"r\xe9sultats"));
    let file = experiment(&dir, "tiny", 2, "");
    let o = sololab([
        OsStr::new("run"),
        file.as_os_str(),
        OsStr::new("--quiet"),
        OsStr::new("--out"),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("summary.csv").is_file());
    // As an experiment, a game, a strategy, a flag or a command it is one error line.
    let bad = latin1(b"\xe9t\xe9");
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec!["run".into(), bad.clone()],
        vec!["run".into(), dir.join(&bad).into_os_string()],
        vec![
            "play".into(),
            bad.clone(),
            "--policy".into(),
            "random".into(),
        ],
        vec!["play".into(), "rift".into(), "--policy".into(), bad.clone()],
        vec!["list".into(), "axes".into(), bad.clone()],
        vec!["bench".into(), "--game".into(), bad.clone()],
        vec![bad.clone()],
        vec!["run".into(), latin1(b"--\xe9")],
    ];
    for args in cases {
        let o = sololab(&args);
        one_line_error(&o, &[]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn worker_threads_that_cannot_start_are_one_error_line() {
    let dir = temp_dir("threads");
    let out = dir.join("out");
    let file = experiment(&dir, "tiny", 2, "");
    // A stack larger than any address space: the system refuses every worker thread.
    let huge = "1000000000000000000";
    let o = command([
        "run",
        p(&file),
        "--quiet",
        "--threads",
        "2",
        "--out",
        p(&out),
    ])
    .env("RUST_MIN_STACK", huge)
    .output()
    .unwrap();
    one_line_error(&o, &["cannot start 2 worker threads"]);
    assert!(!out.exists(), "a failed run creates nothing");
    let o = command([
        "bench",
        "--game",
        "rift",
        "--strategy",
        "random",
        "--games",
        "5",
    ])
    .env("RUST_MIN_STACK", huge)
    .output()
    .unwrap();
    one_line_error(&o, &["cannot start the worker thread"]);
    // The library's error path, for a builder failure however it comes.
    let failed = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .spawn_handler(|_| Err(std::io::Error::other("refused")))
        .build();
    let e = lab::thread_pool(failed, 3).unwrap_err();
    assert_eq!(e.to_string(), "cannot start 3 worker threads: refused");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_toml_records_the_build_commit_not_the_current_directory() {
    let dir = temp_dir("commit");
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    let commit = git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "other",
    ]);
    assert!(commit.status.success(), "{}", stderr(&commit));
    let other = String::from_utf8(git(&["rev-parse", "HEAD"]).stdout).unwrap();
    let file = experiment(&dir, "tiny", 2, "");
    let o = Command::new(BIN)
        .args(["run", p(&file), "--quiet", "--out", "out"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let toml = std::fs::read_to_string(dir.join("out/run.toml")).unwrap();
    assert!(
        toml.contains(&format!("commit = \"{}\"\n", lab::BUILD_COMMIT)),
        "{toml}"
    );
    assert!(!toml.contains(other.trim()), "{toml}");
    // The build commit is this crate's HEAD (with -dirty when the tree had changes).
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(ROOT)
        .output()
        .unwrap();
    if head.status.success() {
        let head = String::from_utf8(head.stdout).unwrap();
        assert!(
            lab::BUILD_COMMIT.starts_with(head.trim()),
            "{} vs {head}",
            lab::BUILD_COMMIT
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unusable_report_folder_is_found_before_the_first_game() {
    let dir = temp_dir("unusable");
    // 10^9 games: a run that got to play would not end within the test.
    let file = experiment(&dir, "big", 1_000_000_000, "");
    let quick = |args: &[&str], cwd: &Path| {
        let start = Instant::now();
        let o = Command::new(BIN)
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap();
        assert!(start.elapsed() < Duration::from_secs(20));
        o
    };
    // A file in the way of the folder, and of a folder above it.
    std::fs::write(dir.join("file"), "x").unwrap();
    let o = quick(
        &["run", p(&file), "--quiet", "--out", p(&dir.join("file"))],
        &dir,
    );
    one_line_error(&o, &["file", "it is a file, not a folder"]);
    let o = quick(
        &[
            "run",
            p(&file),
            "--quiet",
            "--out",
            p(&dir.join("file/out")),
        ],
        &dir,
    );
    one_line_error(&o, &["file/out", "cannot create the report folder"]);
    // A name too long for the file system, from the experiment's name, with the default
    // folder results/<name>: nothing is created, not even results/.
    let long = "x".repeat(300);
    let long_file = experiment(&dir, "long-name", 1_000_000_000, "");
    let text = std::fs::read_to_string(&long_file)
        .unwrap()
        .replace("\"long-name\"", &format!("\"{long}\""));
    std::fs::write(&long_file, text).unwrap();
    let before = names(&dir);
    let o = quick(&["run", p(&long_file), "--quiet"], &dir);
    one_line_error(&o, &["File name too long", &long]);
    assert_eq!(names(&dir), before, "nothing is created");
    assert!(!dir.join("results").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Counts the rows it is given and checks their order.
#[derive(Default)]
struct Counting {
    calls: usize,
    rows: u64,
    largest: usize,
    last: Option<(usize, u64)>,
}

impl RowSink for Counting {
    fn rows(&mut self, rows: &[GameRow]) -> std::io::Result<()> {
        self.calls += 1;
        self.largest = self.largest.max(rows.len());
        for r in rows {
            let at = (r.cell, r.index);
            assert!(
                self.last.is_none_or(|last| last < at),
                "{at:?} after {:?}",
                self.last
            );
            self.last = Some(at);
            self.rows += 1;
        }
        Ok(())
    }
}

#[test]
fn raw_rows_stream_in_order_with_bounded_memory() {
    let games = 3 * RAW_CHUNK as u64 + 17;
    let text = format!(
        "name = \"stream\"\ngame = \"race\"\nstrategies = [\"random\"]\ngames = {games}\n\
         seed = 3\n[sweep]\nstart = [0, 5]\n"
    );
    let plan = Plan::<Race>::new(Experiment::parse(&text, "stream.toml").unwrap(), |n| {
        lab::strategy_source::<Race>(n, Path::new("/nonexistent"))
    })
    .unwrap();
    let options = RunOptions {
        threads: 2,
        raw: true,
    };
    let mut sink = Counting::default();
    let report = lab::try_run_experiment(&plan, &options, &lab::NoProgress, &mut sink).unwrap();
    assert_eq!(sink.rows, 2 * games);
    // Rows arrive a chunk at a time, never more than RAW_CHUNK held at once.
    assert!(sink.calls >= 6, "{} calls", sink.calls);
    assert_eq!(sink.largest, RAW_CHUNK);
    assert_eq!(report.buffered_rows, RAW_CHUNK);
    assert!(report.rows.is_none());
    // The totals are those of the run without rows.
    let plain = lab::run_experiment(
        &plan,
        &RunOptions {
            threads: 1,
            raw: false,
        },
    );
    assert_eq!(plain.summary_csv(), report.summary_csv());
    assert_eq!(plain.buffered_rows, 0);
}

#[test]
fn raw_games_csv_is_identical_on_one_and_two_threads() {
    let dir = temp_dir("raw-threads");
    let file = experiment(&dir, "raw", 5000, "[sweep]\nextra_turn = [false, true]\n");
    let mut csv = Vec::new();
    for (threads, raw) in [("1", true), ("2", true), ("2", false)] {
        let out = dir.join(format!("out-{threads}-{raw}"));
        let mut args = vec![
            "run",
            p(&file),
            "--quiet",
            "--threads",
            threads,
            "--out",
            p(&out),
        ];
        if raw {
            args.push("--raw");
        }
        let o = sololab(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let summary = std::fs::read(out.join("summary.csv")).unwrap();
        let games = std::fs::read(out.join("games.csv")).unwrap_or_default();
        csv.push((summary, games));
    }
    assert_eq!(csv[0], csv[1], "1 and 2 threads");
    assert_eq!(csv[0].0, csv[2].0, "summary.csv with and without --raw");
    let games = String::from_utf8(csv[0].1.clone()).unwrap();
    assert_eq!(games.lines().count(), 1 + 2 * 5000);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_axis_column_collides_with_a_fixed_column() {
    for &kind in GameKind::ALL {
        let (summary, games) = with_game!(kind, G => {
            let axes: Vec<String> =
                <G as sololab::Game>::axes().iter().map(|a| a.name.to_string()).collect();
            let causes = <G as sololab::Game>::LOSS_CAUSES;
            let metrics = <G as sololab::Game>::METRIC_NAMES;
            (
                lab::summary_columns(&axes, causes, metrics),
                lab::games_columns(&axes, causes, metrics),
            )
        });
        for header in [summary, games] {
            let mut sorted = header.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), header.len(), "{}: {header:?}", kind.name());
        }
    }
    // The Rift's campaign game beside the game's name: `setup_game`.
    let dir = temp_dir("axis-columns");
    let file = experiment(&dir, "games", 2, "[sweep]\ngame = [1, 2]\n");
    let out = dir.join("out");
    let o = sololab(["run", p(&file), "--quiet", "--raw", "--out", p(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        summary.starts_with("experiment,game,strategy,setup_game,games,"),
        "{summary}"
    );
    assert!(
        summary
            .lines()
            .nth(2)
            .unwrap()
            .starts_with("games,rift,random,2,")
    );
    let games = std::fs::read_to_string(out.join("games.csv")).unwrap();
    assert!(
        games.starts_with("cell,strategy,setup_game,index,"),
        "{games}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_folder_sololab_did_not_write_is_never_touched() {
    let dir = temp_dir("foreign");
    let file = experiment(&dir, "tiny", 2, "");
    let run = |out: &Path| sololab(["run", p(&file), "--quiet", "--out", p(out)]);
    // A games.csv of someone else's.
    let out = dir.join("theirs");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("games.csv"), "mine\n").unwrap();
    one_line_error(&run(&out), &["not a sololab report folder", "games.csv"]);
    assert_eq!(names(&out), ["games.csv"]);
    assert_eq!(
        std::fs::read_to_string(out.join("games.csv")).unwrap(),
        "mine\n"
    );
    // A report with a file added by hand is not replaced either.
    let out = dir.join("report");
    assert!(run(&out).status.success());
    std::fs::write(out.join("notes.txt"), "keep\n").unwrap();
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    one_line_error(&run(&out), &["notes.txt"]);
    assert_eq!(
        std::fs::read_to_string(out.join("summary.csv")).unwrap(),
        summary
    );
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "keep\n"
    );
    // An empty folder, a marked report and a report from before the marker are replaced.
    std::fs::remove_file(out.join("notes.txt")).unwrap();
    assert!(run(&out).status.success());
    std::fs::remove_file(out.join(lab::MARKER)).unwrap();
    // A report from before the marker had no page and no turns.csv either.
    for name in names(&out) {
        if name == "report.html" || name.ends_with(".svg") || name == "turns.csv" {
            std::fs::remove_file(out.join(name)).unwrap();
        }
    }
    assert!(run(&out).status.success(), "a report without the marker");
    assert!(out.join(lab::MARKER).is_file());
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    assert!(run(&empty).status.success());
    assert_eq!(
        names(&empty),
        [
            ".sololab-report",
            "outcomes.svg",
            "report.html",
            "run.toml",
            "summary.csv",
            "turns.csv",
            "turns.svg",
            "win-rate.svg"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

const BOM: &str = "\u{feff}";

#[test]
fn a_bom_is_accepted_in_every_input_and_not_counted_in_columns() {
    let dir = temp_dir("bom");
    // Experiments.
    let file = experiment(&dir, "bom", 2, "");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, format!("{BOM}{text}")).unwrap();
    let out = dir.join("out");
    let o = sololab(["run", p(&file), "--quiet", "--out", p(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(&file, format!("{BOM}bogus = 1\n{text}")).unwrap();
    one_line_error(
        &sololab(["run", p(&file), "--quiet", "--out", p(&out)]),
        &[&format!("{}:1:1: unknown field `bogus`", p(&file))],
    );
    // Strategies.
    let strategies = dir.join("strategies");
    std::fs::create_dir(&strategies).unwrap();
    std::fs::write(
        strategies.join("mine.toml"),
        format!("{BOM}kind = \"random\"\n"),
    )
    .unwrap();
    let play = |policy: &str| {
        Command::new(BIN)
            .args(["play", "rift", "--policy", policy, "--seed", "2"])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let o = play("mine");
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(strategies.join("mine.toml"), format!("{BOM}kind = 3\n")).unwrap();
    one_line_error(&play("mine"), &["strategies/mine.toml:1:8: key 'kind'"]);
    // Positions: the same game with and without a BOM.
    let position =
        std::fs::read_to_string(Path::new(ROOT).join("tests/positions/r1-compass.pos")).unwrap();
    let (plain, marked) = (dir.join("plain.pos"), dir.join("marked.pos"));
    std::fs::write(&plain, &position).unwrap();
    std::fs::write(&marked, format!("{BOM}{position}")).unwrap();
    let from = |f: &Path| sololab(["play", "rift", "--policy", "random", "--position", p(f)]);
    let (a, b) = (from(&plain), from(&marked));
    assert!(b.status.success(), "{}", stderr(&b));
    assert_eq!(a.stdout, b.stdout);
    // Content files.
    let content =
        std::fs::read_to_string(Path::new(ROOT).join("src/games/rift/content/rift.toml")).unwrap();
    std::fs::write(dir.join("cards.toml"), format!("{BOM}{content}")).unwrap();
    let with_content = experiment(&dir, "content", 2, "[setup]\ncontent = \"cards.toml\"\n");
    let o = sololab(["run", p(&with_content), "--quiet", "--out", p(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::write(dir.join("cards.toml"), format!("{BOM}bogus = 1\n{content}")).unwrap();
    let o = sololab(["run", p(&with_content), "--quiet", "--out", p(&out)]);
    one_line_error(&o, &["cards.toml:1:1:"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_input_that_is_not_utf8_is_located_at_its_first_bad_byte() {
    let dir = temp_dir("utf8");
    let not_utf8 = "invalid UTF-8 byte 0xe9 (sololab reads files as UTF-8 text)";
    // Experiments (a byte-order mark is not counted in the column).
    let file = experiment(&dir, "latin", 2, "");
    let text = std::fs::read(&file).unwrap();
    let mut bytes = BOM.to_string().into_bytes();
    bytes.extend_from_slice(&text);
    bytes.extend_from_slice(b"# caf\xe9\n");
    std::fs::write(&file, &bytes).unwrap();
    let out = dir.join("out");
    one_line_error(
        &sololab(["run", p(&file), "--quiet", "--out", p(&out)]),
        &[&format!("{}:6:6: {not_utf8}", p(&file))],
    );
    assert!(!out.exists());
    // Strategies.
    let strategies = dir.join("strategies");
    std::fs::create_dir(&strategies).unwrap();
    std::fs::write(
        strategies.join("mine.toml"),
        b"kind = \"random\"\n# \xe9t\xe9\n",
    )
    .unwrap();
    let o = Command::new(BIN)
        .args(["play", "rift", "--policy", "mine"])
        .current_dir(&dir)
        .output()
        .unwrap();
    one_line_error(&o, &[&format!("strategies/mine.toml:2:3: {not_utf8}")]);
    // Positions.
    let mut position =
        std::fs::read(Path::new(ROOT).join("tests/positions/r1-compass.pos")).unwrap();
    position.splice(0..0, b"\xe9\n".iter().copied());
    let pos = dir.join("latin.pos");
    std::fs::write(&pos, &position).unwrap();
    one_line_error(
        &sololab(["play", "rift", "--policy", "random", "--position", p(&pos)]),
        &[&format!("{}:1:1: {not_utf8}", p(&pos))],
    );
    // Content files, from an experiment and from --set.
    let mut content =
        std::fs::read(Path::new(ROOT).join("src/games/rift/content/rift.toml")).unwrap();
    content.extend_from_slice(b"\n# \xe9\n");
    let lines = content.iter().filter(|&&b| b == b'\n').count();
    std::fs::write(dir.join("cards.toml"), &content).unwrap();
    let at = format!("cards.toml:{lines}:3: {not_utf8}");
    let with_content = experiment(&dir, "content", 2, "[setup]\ncontent = \"cards.toml\"\n");
    let o = sololab(["run", p(&with_content), "--quiet", "--out", p(&out)]);
    one_line_error(&o, &[&at]);
    let cards = dir.join("cards.toml");
    let o = sololab([
        "play",
        "rift",
        "--policy",
        "random",
        "--set",
        &format!("content={}", p(&cards)),
    ]);
    one_line_error(&o, &[&at]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_closed_or_full_stdout_does_not_fail_a_finished_run() {
    let dir = temp_dir("stdout");
    let file = experiment(&dir, "tiny", 2, "[sweep]\nextra_turn = [false, true]\n");
    // Closed: the reader is gone before the table is printed (`| head -0`).
    let out = dir.join("closed");
    let mut child = command(["run", p(&file), "--quiet", "--out", p(&out)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    assert!(out.join("summary.csv").is_file());
    // Full: the run succeeds and says the table could not be shown.
    let out = dir.join("full");
    let o = command(["run", p(&file), "--quiet", "--out", p(&out)])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write the table to standard output"));
    assert!(out.join("summary.csv").is_file());
    // Where standard output is the product, the error says it is about standard output.
    for args in [
        vec!["list", "games"],
        vec!["play", "rift", "--policy", "random"],
    ] {
        let o = command(&args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        one_line_error(&o, &["cannot write to standard output"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn messages_say_where_and_in_words() {
    let dir = temp_dir("messages");
    let strategies = dir.join("strategies");
    std::fs::create_dir(&strategies).unwrap();
    let play = |text: &str| {
        std::fs::write(strategies.join("s.toml"), text).unwrap();
        Command::new(BIN)
            .args(["play", "rift", "--policy", "s"])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    // Strategy value errors have a line and column, and proper articles.
    let o = play("kind = \"greedy\"\nsamples = 0\n[weights.rift]\n");
    one_line_error(
        &o,
        &["strategies/s.toml:2:11: key 'samples': 0 is not allowed"],
    );
    let o = play("kind = \"greedy\"\nsamples = 1\n[weights.rift]\nbuildings = \"x\"\n");
    one_line_error(
        &o,
        &[
            "strategies/s.toml:4:13: key 'weights.rift.buildings': expected a number, found a string",
        ],
    );
    let o = play("kind = 3\n");
    one_line_error(
        &o,
        &["s.toml:1:8: key 'kind': expected a string, found an integer"],
    );
    // A 20-digit number is out of TOML's range, wherever it is.
    let o = play("kind = \"greedy\"\nsamples = 100000000000000000000\n");
    one_line_error(
        &o,
        &["s.toml:2:11: integer 100000000000000000000 is out of range"],
    );
    let file = experiment(&dir, "big", 2, "").to_path_buf();
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("games = 2", "games = 100000000000000000000");
    std::fs::write(&file, text).unwrap();
    let o = sololab(["run", p(&file), "--quiet"]);
    one_line_error(&o, &[":4:9: integer 100000000000000000000 is out of range"]);
    assert!(!stderr(&o).contains("i128"));
    // `list axes rift` gives the range of `game` for the built-in campaign (5 games).
    let axes = String::from_utf8(sololab(["list", "axes", "rift"]).stdout).unwrap();
    assert!(
        axes.contains("values: integer 1..=5 with the default setup"),
        "{axes}"
    );
    // Progress lines never say "inf".
    assert_eq!(
        lab::progress_line(0, 10, 5.0),
        "0/10 games (0%), 0 games/s, ETA unknown"
    );
    assert_eq!(
        lab::progress_line(0, 10, 0.0),
        "0/10 games (0%), 0 games/s, ETA unknown"
    );
    assert_eq!(
        lab::progress_line(5, 10, 5.0),
        "5/10 games (50%), 1 games/s, ETA 5 s"
    );
    // A resumed run: 40 of its 50 done games were kept, 10 played in 5 s.
    assert_eq!(
        lab::progress_line_played(50, 10, 100, 5.0),
        "50/100 games (50%), 2 games/s, ETA 25 s"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn staging_folders_of_other_hosts_and_namespaces_are_left_alone() {
    // Runs on other cluster nodes, or in other containers (where every run may be process 1),
    // share a parent folder: their staging folders carry another host tag and are never
    // judged stale by this machine's process table. An older version's name is left too.
    let dir = temp_dir("foreign-staging");
    let out = dir.join("out");
    std::fs::create_dir_all(&dir).unwrap();
    let foreign = dir.join(".sololab-1-0-0123456789abcdef.tmp");
    let dead_foreign = dir.join(".sololab-4194303-7-fedcba9876543210.tmp");
    let legacy = dir.join(".sololab-4194303-0.tmp");
    for d in [&foreign, &dead_foreign, &legacy] {
        std::fs::create_dir(d).unwrap();
        std::fs::write(d.join("summary.csv"), "a live run's file\n").unwrap();
    }
    small_run(&dir, &out, 4);
    for d in [&foreign, &dead_foreign, &legacy] {
        assert_eq!(
            std::fs::read_to_string(d.join("summary.csv")).unwrap(),
            "a live run's file\n",
            "{}",
            d.display()
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn only_provable_staging_folders_of_killed_runs_are_removed() {
    // A folder merely named like a dead run's staging folder (this host's tag, a process that
    // is gone) was removed with its contents by the next run beside it. Now only what sololab
    // made is: a staging folder with its marker, an empty one, or a whole report.
    let dir = temp_dir("named-like-staging");
    let out = dir.join("out");
    small_run(&dir, &out, 4);
    let mut child = long_run(&dir, &out);
    wait_for_staging(&dir, &mut child);
    child.kill().unwrap(); // SIGKILL: its staging folder stays
    child.wait().unwrap();
    let killed: Vec<String> = names(&dir)
        .into_iter()
        .filter(|n| n.starts_with(".sololab-"))
        .collect();
    assert_eq!(killed.len(), 1, "{killed:?}");
    let staging = dir.join(&killed[0]);
    let marker = std::fs::read_to_string(staging.join(lab::STAGING_MARKER)).unwrap();
    assert!(
        marker.starts_with("# sololab staging folder of process "),
        "{marker}"
    );
    // This host's tag and the killed run's process id, from its staging folder's name.
    let tag = killed[0]
        .strip_suffix(".tmp")
        .and_then(|n| n.rsplit('-').next())
        .unwrap()
        .to_string();
    let pid = child.id();
    assert!(
        killed[0].starts_with(&format!(".sololab-{pid}-")),
        "{killed:?}"
    );
    let named = |n: u32, ext: &str| dir.join(format!(".sololab-{pid}-{n}-{tag}.{ext}"));
    // Someone's folders named like staging folders: notes, or notes beside a report.
    let notes = named(7, "tmp");
    std::fs::create_dir(&notes).unwrap();
    std::fs::write(notes.join("notes.txt"), "precious\n").unwrap();
    let mixed = named(8, "old");
    std::fs::create_dir(&mixed).unwrap();
    for name in names(&out) {
        std::fs::copy(out.join(&name), mixed.join(&name)).unwrap();
    }
    std::fs::write(mixed.join("notes.txt"), "mine too\n").unwrap();
    // A marker naming another process is not this folder's.
    let forged = named(9, "tmp");
    std::fs::create_dir(&forged).unwrap();
    let other = marker.replace(&format!("process {pid} "), "process 1 ");
    assert_ne!(other, marker);
    std::fs::write(forged.join(lab::STAGING_MARKER), other).unwrap();
    std::fs::write(forged.join("notes.txt"), "kept\n").unwrap();
    // What a run killed during its commit leaves: a whole report, or an empty folder, or a
    // marker cut short (killed while writing it).
    let report_copy = |folder: &Path| {
        std::fs::create_dir(folder).unwrap();
        for name in names(&out) {
            std::fs::copy(out.join(&name), folder.join(&name)).unwrap();
        }
    };
    let whole = named(10, "tmp");
    report_copy(&whole);
    let empty = named(11, "tmp");
    std::fs::create_dir(&empty).unwrap();
    let cut = named(12, "tmp");
    std::fs::create_dir(&cut).unwrap();
    std::fs::write(cut.join(lab::STAGING_MARKER), &marker[..10]).unwrap();
    // Kept: a whole report under `.old` (the two-rename swap's copy of the previous report,
    // the only one when a run is killed between its renames), and a whole report holding a
    // work area (a commit that could not swap keeps an interrupted run's games there).
    let previous = named(13, "old");
    report_copy(&previous);
    let carried = named(14, "tmp");
    report_copy(&carried);
    std::fs::create_dir(carried.join(lab::WORK)).unwrap();
    std::fs::write(carried.join(lab::WORK).join("chunk-x.toml"), "games\n").unwrap();

    small_run(&dir, &out, 6);
    assert!(
        !staging.exists(),
        "the killed run's staging folder is removed"
    );
    assert!(!whole.exists() && !empty.exists() && !cut.exists());
    assert!(previous.join("summary.csv").is_file());
    assert!(carried.join(lab::WORK).join("chunk-x.toml").is_file());
    assert_eq!(
        std::fs::read_to_string(notes.join("notes.txt")).unwrap(),
        "precious\n"
    );
    assert_eq!(
        std::fs::read_to_string(mixed.join("notes.txt")).unwrap(),
        "mine too\n"
    );
    assert_eq!(
        std::fs::read_to_string(forged.join("notes.txt")).unwrap(),
        "kept\n"
    );
    // The report has no staging marker.
    assert!(!names(&out).iter().any(|n| n == lab::STAGING_MARKER));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_report_folder_named_like_sololabs_own_is_refused_before_the_first_game() {
    // An experiment named like a staging folder played its games, then its run removed its own
    // report folder as a dead run's debris ("cannot save a finished chunk"). Names beginning
    // with '.' (sololab's own all do) are refused at the name's line and column, and a --out
    // through a folder named like sololab's own by every command; nothing is written.
    let dir = temp_dir("reserved-names");
    for name in [
        ".sololab-99999-0-0123456789abcdef.tmp",
        ".sololab-work",
        ".hidden",
    ] {
        let file = experiment(&dir, "e", 4, "");
        let text = std::fs::read_to_string(&file)
            .unwrap()
            .replace("name = \"e\"", &format!("name = \"{name}\""));
        std::fs::write(&file, text).unwrap();
        for args in [
            vec!["run", "e.toml"],
            vec!["run", "e.toml", "--shard", "0/2"],
        ] {
            let o = Command::new(BIN)
                .args(&args)
                .arg("--quiet")
                .current_dir(&dir)
                .output()
                .unwrap();
            one_line_error(
                &o,
                &[
                    "e.toml:1:8:",
                    &format!("name '{name}' must not begin with '.'"),
                ],
            );
            assert_eq!(names(&dir), ["e.toml"], "{args:?}");
        }
    }
    let file = experiment(&dir, "e", 4, "");
    for reserved in [
        ".sololab-work",
        ".sololab-report",
        ".sololab-1-0-0123456789abcdef.tmp",
        ".sololab-1-0-0123456789abcdef.old",
    ] {
        for out in [dir.join(reserved), dir.join(reserved).join("inner")] {
            let runs: [&[&str]; 4] = [
                &["run", p(&file)],
                &["run", p(&file), "--shard", "0/2"],
                &["sensitivity", p(&file), "--values", "ruins"],
                &["bench", "--strength", "rift", "--strategy", "random"],
            ];
            for args in runs {
                let flag = if args[0] == "bench" {
                    "--strength-out"
                } else {
                    "--out"
                };
                let o = command(args)
                    .args(["--games", "2", flag, p(&out)])
                    .output()
                    .unwrap();
                one_line_error(
                    &o,
                    &[
                        p(&out),
                        &format!("'{reserved}' is a name sololab keeps for its own files"),
                    ],
                );
                assert!(!stderr(&o).contains("measuring"), "{}", stderr(&o));
                assert_eq!(names(&dir), ["e.toml"], "{args:?} {}", out.display());
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_out_folder_that_is_a_symbolic_link_is_written_through() {
    // The report goes into the folder the link points to; the link stays a link, and a
    // second run there replaces that report (no stranded work area, no refusal).
    let dir = temp_dir("out-link");
    let real = dir.join("real");
    let link = dir.join("link");
    std::fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let first = small_run(&dir, &link, 4);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(real.join("summary.csv")).unwrap(),
        first
    );
    assert!(!real.join(".sololab-work").exists());
    // Again, with other games, through the folder itself this time.
    let second = small_run(&dir, &real, 6);
    assert_ne!(first, second);
    assert_eq!(
        std::fs::read_to_string(link.join("summary.csv")).unwrap(),
        second
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_out_writes_through_a_link_and_refuses_what_is_not_a_file() {
    let dir = temp_dir("tune-out");
    std::fs::create_dir_all(&dir).unwrap();
    // A named pipe (a device behaves alike): refused before any game, left as it was.
    let fifo = dir.join("pipe.toml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let tune = |out: &Path| {
        sololab([
            "tune",
            "rift",
            "--strategy",
            "greedy",
            "--games",
            "2",
            "--sweeps",
            "1",
            "--out",
            p(out),
        ])
    };
    let o = tune(&fifo);
    one_line_error(&o, &[p(&fifo), "not a regular file"]);
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    // A link to a file: the file gets the weights, the link stays a link.
    let target = dir.join("weights.toml");
    std::fs::write(&target, "old\n").unwrap();
    let link = dir.join("link.toml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let o = tune(&link);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.contains("kind = \"greedy\""), "{written}");
    std::fs::remove_dir_all(&dir).unwrap();
}
