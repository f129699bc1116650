//! Shards and `merge` (issue 16), end to end through the binary: a run split in 4 shards and
//! merged is the unsharded run byte for byte on every registered game, in any order; merge
//! refuses missing, duplicated and foreign shards with one line; and an interrupted run (a
//! real signal to a real child process) resumes to the uninterrupted run's bytes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sololab::GameKind;

const BIN: &str = env!("CARGO_BIN_EXE_sololab");

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-shards-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn sololab(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A refusal: exit status 2 and one error line holding each of `expected`.
fn refused(o: &Output, expected: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    for e in expected {
        assert!(err.contains(e), "expected {e:?} in {err}");
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `run.toml` without the machine's lines (threads, wall time, speed).
fn run_toml_numbers(dir: &Path) -> String {
    read(&dir.join("run.toml"))
        .lines()
        .filter(|l| {
            !l.starts_with("threads =")
                && !l.starts_with("wall_s =")
                && !l.starts_with("games_per_s =")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// An experiment for `game`: random and greedy, 13 games a cell (not a multiple of 4), a
/// paired comparison against random, the two as a skill ladder; the Rift also sweeps its
/// ruins.
fn experiment(dir: &Path, game: &str, seed: u64) -> PathBuf {
    let sweep = if game == "rift" {
        "[sweep]\nruins = [2, 3]\n[compare]\nbaseline = { strategy = \"random\", ruins = 3 }\n\
         [ladder]\nstrategies = [\"random\", \"greedy\"]\n"
    } else {
        "[compare]\nbaseline = { strategy = \"random\" }\n\
         [ladder]\nstrategies = [\"random\", \"greedy\"]\n"
    };
    let file = dir.join(format!("{game}-{seed}.toml"));
    std::fs::write(
        &file,
        format!(
            "name = \"split-{game}\"\ngame = \"{game}\"\nstrategies = [\"random\", \"greedy\"]\n\
             games = 13\nseed = {seed}\n{sweep}"
        ),
    )
    .unwrap();
    file
}

fn shard(file: &Path, k: u64, n: u64, out: &Path) {
    let spec = format!("{k}/{n}");
    ok(&sololab(&[
        "run",
        p(file),
        "--quiet",
        "--threads",
        "2",
        "--shard",
        &spec,
        "--out",
        p(out),
    ]));
}

#[test]
fn four_shards_merged_are_the_unsharded_run_byte_for_byte_on_every_game() {
    let dir = temp_dir("every-game");
    for kind in GameKind::ALL {
        let game = kind.name();
        let file = experiment(&dir, game, 5);
        let whole = dir.join(format!("{game}-whole"));
        let run = sololab(&[
            "run",
            p(&file),
            "--quiet",
            "--threads",
            "1",
            "--out",
            p(&whole),
        ]);
        ok(&run);
        // Shards run in any order, on any thread count, merged in any order.
        let parts: Vec<PathBuf> = (0..4).map(|k| dir.join(format!("{game}-{k}"))).collect();
        for k in [3, 1, 0, 2] {
            shard(&file, k, 4, &parts[k as usize]);
            assert!(parts[k as usize].join("partial.toml").is_file());
        }
        let merged = dir.join(format!("{game}-merged"));
        let o = sololab(&[
            "merge",
            p(&parts[2]),
            p(&parts[0]),
            p(&parts[3]),
            p(&parts[1]),
            "--quiet",
            "--out",
            p(&merged),
        ]);
        ok(&o);
        // Every file but run.toml (which has the machine's numbers) is the same bytes: the
        // turn histograms, the ladder, and the page built from them.
        for name in [
            "summary.csv",
            "pairs.csv",
            "turns.csv",
            "ladder.csv",
            "ladder.svg",
            "turns.svg",
            "report.html",
            ".sololab-report",
        ] {
            assert_eq!(
                read(&merged.join(name)),
                read(&whole.join(name)),
                "{game}: {name}"
            );
        }
        // The ladder works on every game: one row per setup cell with both rungs.
        let ladder = read(&whole.join("ladder.csv"));
        assert!(ladder.lines().count() >= 2, "{game}: {ladder}");
        let page = read(&whole.join("report.html"));
        assert!(
            page.contains("id=\"ladder\""),
            "{game}: the ladder chart is on the page"
        );
        // merge prints the table run prints (all but the last line, which names the folder).
        let table = |o: &std::process::Output| {
            let text = String::from_utf8_lossy(&o.stdout).into_owned();
            let lines: Vec<&str> = text.lines().collect();
            lines[..lines.len() - 1].join("\n")
        };
        assert_eq!(table(&o), table(&run), "{game}");
        assert!(table(&run).contains("vs baseline (95%)"), "{}", table(&run));
        assert!(table(&run).contains("baseline\n") || table(&run).ends_with("baseline"));
        assert!(table(&run).contains("pp ("), "{}", table(&run));
        assert_eq!(
            run_toml_numbers(&merged),
            run_toml_numbers(&whole),
            "{game}"
        );
        let summary = read(&whole.join("summary.csv"));
        assert!(summary.lines().count() >= 3, "{summary}");
        assert!(
            summary.contains(",13,"),
            "{game}: 13 games a cell: {summary}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_refuses_missing_duplicated_and_foreign_shards_with_one_line() {
    let dir = temp_dir("refused");
    let file = experiment(&dir, "rift", 5);
    let parts: Vec<PathBuf> = (0..3).map(|k| dir.join(format!("part-{k}"))).collect();
    for k in 0..3 {
        shard(&file, k, 3, &parts[k as usize]);
    }
    let out = dir.join("merged");
    let merge = |dirs: &[&Path]| {
        let mut args = vec!["merge"];
        args.extend(dirs.iter().map(|d| p(d)));
        args.extend(["--quiet", "--out", p(&out)]);
        sololab(&args)
    };
    // A missing shard.
    refused(&merge(&[&parts[0], &parts[2]]), &["shard 1/3 is missing"]);
    // A shard given twice.
    refused(
        &merge(&[&parts[0], &parts[1], &parts[1], &parts[2]]),
        &["shard 1/3 is given twice", p(&parts[1])],
    );
    // A shard of another experiment (another seed).
    let other = experiment(&dir, "rift", 6);
    let foreign = dir.join("foreign");
    shard(&other, 2, 3, &foreign);
    refused(
        &merge(&[&parts[0], &parts[1], &foreign]),
        &[p(&foreign), "another experiment", "seed = 6"],
    );
    // A shard of another split.
    let split = dir.join("split");
    shard(&file, 1, 2, &split);
    refused(
        &merge(&[&parts[0], &split, &parts[2]]),
        &[p(&split), "split in 2"],
    );
    // Not a shard's folder.
    refused(&merge(&[&parts[0], &dir]), &["partial.toml", "cannot read"]);
    // A partial whose code version differs.
    let text = read(&parts[2].join("partial.toml"));
    let commit = text.lines().find(|l| l.starts_with("commit = ")).unwrap();
    std::fs::write(
        parts[2].join("partial.toml"),
        text.replace(commit, "commit = \"0000000\""),
    )
    .unwrap();
    refused(
        &merge(&[&parts[0], &parts[1], &parts[2]]),
        &[p(&parts[2]), "code version", "0000000"],
    );
    std::fs::write(parts[2].join("partial.toml"), &text).unwrap();
    // A partial whose play time is not a number of seconds (before, merge wrote its report
    // files and then refused its own run.toml).
    let wall = text.lines().find(|l| l.starts_with("wall_s = ")).unwrap();
    for bad in ["wall_s = nan", "wall_s = -1.5", "wall_s = 1e308"] {
        std::fs::write(parts[2].join("partial.toml"), text.replace(wall, bad)).unwrap();
        refused(
            &merge(&[&parts[0], &parts[1], &parts[2]]),
            &[p(&parts[2]), "not a number of seconds"],
        );
    }
    // A malformed partial: one line with the file, line and column of the fault.
    let line = text.lines().position(|l| l == wall).unwrap() + 1;
    std::fs::write(
        parts[2].join("partial.toml"),
        text.replace(wall, "wall_s = \"soon\""),
    )
    .unwrap();
    refused(
        &merge(&[&parts[0], &parts[1], &parts[2]]),
        &[
            &format!(
                "{}:{line}:10: not a sololab partial report: invalid type",
                p(&parts[2].join("partial.toml"))
            ),
            "expected f64",
        ],
    );
    // Nor a thread count a run cannot have.
    let threads = text.lines().find(|l| l.starts_with("threads = ")).unwrap();
    std::fs::write(
        parts[2].join("partial.toml"),
        text.replace(threads, "threads = 0"),
    )
    .unwrap();
    refused(
        &merge(&[&parts[0], &parts[1], &parts[2]]),
        &[p(&parts[2]), "at least 1 thread"],
    );
    std::fs::write(parts[2].join("partial.toml"), &text).unwrap();
    // The merged report into one of the shards' own folders (it would replace that shard's
    // partial.toml): refused, the shard kept.
    let into = sololab(&[
        "merge",
        p(&parts[0]),
        p(&parts[1]),
        p(&parts[2]),
        "--quiet",
        "--out",
        p(&parts[1]),
    ]);
    refused(&into, &["--out", "a shard's folder being merged"]);
    assert!(parts[1].join("partial.toml").exists());
    // Nothing was written by any refusal.
    assert!(!out.exists());
    // Bad --shard values.
    for bad in ["3/3", "1", "-1/3", "0/0", "a/b"] {
        let o = sololab(&["run", p(&file), "--quiet", "--shard", bad, "--out", p(&out)]);
        refused(&o, &["--shard"]);
    }
    assert!(!out.exists());
    // A partial whose line endings were turned into CRLF (an editor, a Windows checkout) is
    // the same shard: the merge is the LF one's, byte for byte (it was refused as "another
    // experiment (line N: '(end)' instead of '(end)')").
    let o = merge(&[&parts[0], &parts[1], &parts[2]]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lf = read(&out.join("summary.csv"));
    std::fs::write(parts[2].join("partial.toml"), text.replace('\n', "\r\n")).unwrap();
    let o = merge(&[&parts[0], &parts[1], &parts[2]]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(read(&out.join("summary.csv")), lf);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The names in `dir`, sorted (empty when it does not exist).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Waits until `work` holds `n` finished chunks, then sends `child` SIGTERM (what a scheduler
/// sends) and returns its output.
fn interrupt_after_chunks(child: std::process::Child, work: &Path, n: usize) -> Output {
    let start = Instant::now();
    let chunks = || {
        names(work)
            .iter()
            .filter(|n| n.starts_with("chunk-") && n.ends_with(".toml"))
            .count()
    };
    while chunks() < n {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no chunk finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

/// A scratch folder for `tag` holding an empty folder named `experiments` (for the experiment
/// file), `cards/a.toml` (the Rift's built-in content) and `cards/b.toml` (the same cards, one
/// byte more: another file to the run identity).
fn folder_with_cards(tag: &str, experiments: &str) -> PathBuf {
    let dir = temp_dir(tag);
    std::fs::create_dir_all(dir.join(experiments)).unwrap();
    std::fs::create_dir_all(dir.join("cards")).unwrap();
    let builtin = include_str!("../src/games/rift/content/rift.toml");
    std::fs::write(dir.join("cards/a.toml"), builtin).unwrap();
    std::fs::write(
        dir.join("cards/b.toml"),
        builtin.replacen("hp = ", "hp =  ", 1),
    )
    .unwrap();
    dir
}

#[test]
fn an_interrupted_run_resumes_without_replaying_to_the_same_bytes() {
    let dir = temp_dir("resume");
    let file = dir.join("long.toml");
    std::fs::write(
        &file,
        "name = \"long\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 60000\nseed = 9\n\
         [sweep]\nextra_turn = [false, true]\n[compare]\nbaseline = { extra_turn = false }\n",
    )
    .unwrap();
    let out = dir.join("out");
    let work = out.join(sololab::lab::WORK);
    // A previous report in the folder, which the interrupted run must leave as it was.
    let small = dir.join("small.toml");
    std::fs::write(
        &small,
        "name = \"small\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 5\nseed = 1\n",
    )
    .unwrap();
    ok(&sololab(&["run", p(&small), "--quiet", "--out", p(&out)]));
    let before = read(&out.join("summary.csv"));

    let child = Command::new(BIN)
        .args([
            "run",
            p(&file),
            "--quiet",
            "--threads",
            "2",
            "--out",
            p(&out),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Two finished chunks, then SIGTERM.
    let o = interrupt_after_chunks(child, &work, 2);
    let chunks = || {
        names(&work)
            .iter()
            .filter(|n| n.starts_with("chunk-") && n.ends_with(".toml"))
            .count()
    };
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("the report folder is as it was"), "{err}");
    assert!(err.contains(p(&work)), "{err}");
    assert!(err.contains("--resume"), "{err}");
    // The previous report is untouched; the finished chunks are kept.
    assert_eq!(read(&out.join("summary.csv")), before);
    let kept = chunks();
    assert!(kept >= 2);
    // 2 cells: chunks of 4096 / 2 positions, 30 in all.
    let all = 60000u64.div_ceil(sololab::lab::CHUNK_GAMES / 2) as usize;
    assert!(kept < all, "the run was interrupted before its end");

    // Each kept chunk records the wall-clock time it took; the resumed run's wall_s counts
    // them (set to 1000 s each here, so the sum shows whatever this machine's speed).
    for name in names(&work).iter().filter(|n| n.starts_with("chunk-")) {
        let path = work.join(name);
        let text = read(&path);
        let line = text
            .lines()
            .find(|l| l.starts_with("wall_s = "))
            .unwrap_or_else(|| panic!("{name} records no wall_s: {text}"));
        let s: f64 = line["wall_s = ".len()..].parse().unwrap();
        assert!(s > 0.0 && s < 120.0, "{line}");
        std::fs::write(&path, text.replace(line, "wall_s = 1000.0")).unwrap();
    }
    // `status` shows how far it got: the kept chunks' games per cell and their time.
    let positions: u64 = names(&work)
        .iter()
        .filter_map(|n| n.strip_prefix("chunk-")?.strip_suffix(".toml"))
        .map(|n| {
            let (from, to) = n.split_once('-').unwrap();
            to.parse::<u64>().unwrap() - from.parse::<u64>().unwrap()
        })
        .sum();
    let o = sololab(&["status", p(&out)]);
    ok(&o);
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        shown.contains(&format!(
            "long (rift), shard 0/1, {kept} finished chunks, {} games, {} s of play",
            2 * positions,
            1000 * kept
        )),
        "{shown}"
    );
    // The games still to play: both cells up to 60,000, at the recorded pace (1,000 s a chunk).
    let to_go = 2 * (60_000 - positions);
    let hours = to_go as f64 * (1000 * kept) as f64 / (2 * positions) as f64 / 3600.0;
    assert!(
        shown.contains(&format!(
            "\nto go: {to_go} games, about {hours:.1} h of play at the pace of the chunks so far\n"
        )),
        "{shown}"
    );
    // A run from this folder (the crate's, where the run started) can resume it, by this
    // binary (a build of uncommitted code says it cannot be rebuilt).
    let line = shown
        .lines()
        .find(|l| l.starts_with("resumable from "))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(
        line.contains(&format!(
            "resumable from {}: the strategies and content files match, ",
            env!("CARGO_MANIFEST_DIR")
        )),
        "{line}"
    );
    if sololab::lab::BUILD_COMMIT.ends_with("-dirty") {
        assert!(line.contains("only by the binary that ran it"), "{line}");
    } else {
        assert!(line.ends_with(", by this binary"), "{line}");
    }
    // One row a cell (both cells play every chunk), each with the chunks' positions.
    let rows: Vec<&str> = shown.lines().filter(|l| l.starts_with("random")).collect();
    assert_eq!(rows.len(), 2, "{shown}");
    for row in rows {
        assert!(row.contains(&format!(" {positions} ")), "{row}");
    }
    // A copy of a chunk under another name is not counted twice: refused.
    let first = names(&work)
        .into_iter()
        .find(|n| n.starts_with("chunk-"))
        .unwrap();
    let copy = work.join("chunk-copy.toml");
    std::fs::copy(work.join(&first), &copy).unwrap();
    refused(
        &sololab(&["status", p(&out)]),
        &["chunk-copy.toml", "a second chunk"],
    );
    std::fs::remove_file(&copy).unwrap();
    // A chunk whose positions overlap another's, or lie past the run's games, is not of this
    // run either: status and --resume refuse it (before, status counted it and resume
    // ignored it).
    let refused_by_status_and_resume = |chunk: &str, expected: &str| {
        refused(&sololab(&["status", p(&out)]), &[chunk, expected]);
        let resume = [
            "run",
            p(&file),
            "--quiet",
            "--threads",
            "2",
            "--out",
            p(&out),
            "--resume",
        ];
        refused(&sololab(&resume), &[chunk, expected]);
    };
    let text = read(&work.join(&first));
    let (from, to) = first
        .strip_prefix("chunk-")
        .and_then(|n| n.strip_suffix(".toml"))
        .and_then(|n| n.split_once('-'))
        .map(|(a, b)| (a.parse::<u64>().unwrap(), b.parse::<u64>().unwrap()))
        .unwrap();
    for (shift, expected) in [
        (1, "overlap another chunk's"),
        (60_000, "of a run of 60000 a cell"),
    ] {
        let moved = text
            .replace(
                &format!("\nfrom = {from}\n"),
                &format!("\nfrom = {}\n", from + shift),
            )
            .replace(
                &format!("\nto = {to}\n"),
                &format!("\nto = {}\n", to + shift),
            );
        assert_ne!(moved, text);
        std::fs::write(&copy, moved).unwrap();
        refused_by_status_and_resume("chunk-copy.toml", expected);
        std::fs::remove_file(&copy).unwrap();
    }
    // A chunk naming a cell the plan does not have (the plan has 2): refused by both (before,
    // --resume took it and played its positions again).
    assert!(text.contains("\ncells = [0, 1]\n"), "{text}");
    std::fs::write(
        work.join(&first),
        text.replace("\ncells = [0, 1]\n", "\ncells = [0, 9]\n"),
    )
    .unwrap();
    refused_by_status_and_resume(&first, "has cell 9, not in the plan's 2");
    std::fs::write(work.join(&first), &text).unwrap();
    // Another shard's positions are not this run's: resuming the work area as shard 1/2 of
    // the run (in a copy of the folder) is refused.
    let other = dir.join("other");
    std::fs::create_dir_all(other.join(sololab::lab::WORK)).unwrap();
    for name in names(&work) {
        std::fs::copy(work.join(&name), other.join(sololab::lab::WORK).join(&name)).unwrap();
    }
    let o = sololab(&[
        "run",
        p(&file),
        "--quiet",
        "--shard",
        "1/2",
        "--resume",
        "--out",
        p(&other),
    ]);
    refused(&o, &["shard 0/1 instead of 1/2"]);
    // An identity whose game is not its experiment's game is not a run status can read.
    let identity = other.join(sololab::lab::WORK).join("identity.toml");
    let text = read(&identity);
    let edited = text.replacen("game = \"rift\"", "game = \"buried\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&identity, edited).unwrap();
    refused(
        &sololab(&["status", p(&other)]),
        &["identity.toml", "game \"buried\"", "of game \"rift\""],
    );
    // A work area of one chunk says so in the singular.
    let single = dir.join("single");
    std::fs::create_dir_all(single.join(sololab::lab::WORK)).unwrap();
    for name in ["identity.toml", first.as_str()] {
        std::fs::copy(work.join(name), single.join(sololab::lab::WORK).join(name)).unwrap();
    }
    let o = sololab(&["status", p(&single)]);
    ok(&o);
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(shown.contains("shard 0/1, 1 finished chunk, "), "{shown}");
    // `status` on a copy of the identity and the first chunk with `from` replaced by `to` in
    // both (so the copy stays a whole work area): its standard output.
    let status_of_edited = |name: &str, from: &str, to: &str| {
        let copy = dir.join(name);
        std::fs::create_dir_all(copy.join(sololab::lab::WORK)).unwrap();
        for file in ["identity.toml", first.as_str()] {
            let text = read(&work.join(file));
            let edited = text.replace(from, to);
            assert_ne!(edited, text, "{file}");
            std::fs::write(copy.join(sololab::lab::WORK).join(file), edited).unwrap();
        }
        let o = sololab(&["status", p(&copy)]);
        ok(&o);
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let not_resumable = |shown: &str| -> String {
        let line = shown.lines().find(|l| l.starts_with("not resumable from "));
        line.unwrap_or_else(|| panic!("{shown}")).to_string()
    };
    // A recorded strategy this checkout no longer has: status says resuming would fail.
    let line = not_resumable(&status_of_edited(
        "gone",
        "\"random\"",
        "\"no-longer-here\"",
    ));
    assert!(line.contains("unknown strategy 'no-longer-here'"), "{line}");
    assert!(
        line.contains("identity.toml (its experiment text):"),
        "{line}"
    );
    // A work area of another commit: resumable, by a binary of that commit.
    let recorded = format!("commit = \"{}\"", sololab::lab::BUILD_COMMIT);
    let hash = "0123456789abcdef0123456789abcdef01234567";
    let shown = status_of_edited("other-commit", &recorded, &format!("commit = \"{hash}\""));
    assert!(
        shown.contains(": the strategies and content files match, by a binary of the recorded commit (scripts/resume-at-commit.sh builds one)\n"),
        "{shown}"
    );
    // A work area of uncommitted code keeps its mark in the first line, and says no checkout
    // rebuilds its binary.
    let shown = status_of_edited("dirty", &recorded, &format!("commit = \"{hash}-dirty\""));
    assert!(
        shown.contains("by a binary of commit 0123456789ab-dirty\n"),
        "{shown}"
    );
    assert!(
        shown.contains(&format!("but only by the binary that ran it: its commit '{hash}-dirty' names code no checkout rebuilds\n")),
        "{shown}"
    );
    // A changed strategy definition (here: the recorded one edited) is named with its line.
    let line = not_resumable(&status_of_edited(
        "changed",
        "kind = \"random\"",
        "kind = \"random\"\nnote = 1",
    ));
    assert!(
        line.contains("a run here would have other strategy definitions (line "),
        "{line}"
    );
    // A run without --resume would throw the work away: refused.
    let o = sololab(&["run", p(&file), "--quiet", "--out", p(&out)]);
    refused(&o, &[p(&work), "--resume"]);
    // Resumed: the finished chunks are taken, not played again.
    let o = sololab(&["run", p(&file), "--quiet", "--resume", "--out", p(&out)]);
    ok(&o);
    let resumed = stderr(&o);
    assert!(
        resumed.contains(&format!("resumed: {kept} finished chunks")),
        "{resumed}"
    );
    assert!(!work.exists(), "the work area goes with the finished run");
    refused(&sololab(&["status", p(&out)]), &[p(&out), "no work area"]);
    // An empty work area (a run killed before its first chunk) holds no game: status says a
    // run starts afresh (it said the identity could not be read).
    std::fs::create_dir(&work).unwrap();
    refused(
        &sololab(&["status", p(&out)]),
        &[p(&work), "holds no finished game", "starts afresh"],
    );
    std::fs::remove_dir(&work).unwrap();
    // A file is not a folder, and says so.
    refused(
        &sololab(&["status", p(&out.join("summary.csv"))]),
        &["summary.csv", "a file, not a report folder"],
    );
    // Several folders: each that has a work area is shown, each that has none is one error
    // line, and the status is 2.
    let o = sololab(&["status", p(&out), p(&single)]);
    refused(&o, &[p(&out), "no work area"]);
    let shown = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(shown.contains("shard 0/1, 1 finished chunk, "), "{shown}");
    let run_toml = read(&out.join("run.toml"));
    let wall: f64 = run_toml
        .lines()
        .find_map(|l| l.strip_prefix("wall_s = "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        wall >= 1000.0 * kept as f64 && wall < 1000.0 * kept as f64 + 120.0,
        "wall_s {wall} with {kept} resumed chunks of 1000 s"
    );

    // The uninterrupted run, elsewhere, on one thread: the same bytes.
    let whole = dir.join("whole");
    ok(&sololab(&[
        "run",
        p(&file),
        "--quiet",
        "--threads",
        "1",
        "--out",
        p(&whole),
    ]));
    for name in ["summary.csv", "pairs.csv", "turns.csv", ".sololab-report"] {
        assert_eq!(read(&out.join(name)), read(&whole.join(name)), "{name}");
    }
    assert_eq!(run_toml_numbers(&out), run_toml_numbers(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_identity_knows_its_content_files_so_an_edited_one_is_another_run() {
    let dir = temp_dir("content-id");
    let cards = dir.join("my-cards.toml");
    let builtin = include_str!("../src/games/rift/content/rift.toml");
    std::fs::write(&cards, builtin).unwrap();
    let text = format!(
        "name = \"c\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 5\nseed = 1\n\
         [sweep]\ncontent = [\"builtin\", {:?}]\n",
        p(&cards)
    );
    let experiment = sololab::lab::Experiment::parse(&text, "c.toml").unwrap();
    let before = sololab::lab::content_fingerprint(&experiment);
    assert!(
        before.starts_with(&format!("{} fnv1a64=", p(&cards))),
        "{before}"
    );
    assert_eq!(before.lines().count(), 1, "builtin is not a file: {before}");
    // The same bytes, the same fingerprint; one byte more, another.
    assert_eq!(sololab::lab::content_fingerprint(&experiment), before);
    std::fs::write(&cards, builtin.replacen("hp = ", "hp =  ", 1)).unwrap();
    let after = sololab::lab::content_fingerprint(&experiment);
    assert_ne!(after, before);
    let id = |content: String| sololab::lab::RunIdentity {
        format: sololab::lab::PARTIAL_FORMAT.into(),
        version: "v".into(),
        commit: "c".into(),
        game: "rift".into(),
        shard: "0/1".into(),
        experiment: text.clone(),
        definition: String::new(),
        content,
    };
    let what = id(before).difference(&id(after)).expect("a difference");
    assert!(what.starts_with("other content files"), "{what}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn content_files_named_relative_to_the_experiment_are_one_run_however_its_path_is_typed() {
    // exp/x.toml names ../cards/a.toml and ../cards/b.toml; the run is started as
    // DIR/exp/x.toml and as DIR/exp/../exp/x.toml, which resolve the files to two spellings of
    // the same paths. Before the fix the identities recorded the resolved spellings, so the
    // shards (and a work area's resume) refused each other, and the baseline's file name,
    // left unresolved, no longer matched its resolved sweep value.
    let dir = folder_with_cards("spelling", "exp");
    let sweep = "content = [\"../cards/a.toml\", \"../cards/b.toml\"]";
    std::fs::write(
        dir.join("exp/x.toml"),
        format!(
            "name = \"x\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 13\nseed = 2\n\
             [sweep]\n{sweep}\n[compare]\nbaseline = {{ content = \"../cards/b.toml\" }}\n"
        ),
    )
    .unwrap();
    let plain = dir.join("exp/x.toml");
    let detour = dir.join("exp/../exp/x.toml");

    let load = |path: &Path| sololab::lab::Experiment::load(path).unwrap();
    let (a, b) = (load(&plain), load(&detour));
    assert_ne!(
        a.sweep, b.sweep,
        "the game sees two spellings of the resolved paths"
    );
    assert_eq!(a.to_toml(), b.to_toml());
    assert!(a.to_toml().contains(sweep), "as written: {}", a.to_toml());
    assert_eq!((a.baseline_cell(), b.baseline_cell()), (Some(1), Some(1)));
    let print = sololab::lab::content_fingerprint(&a);
    assert_eq!(print, sololab::lab::content_fingerprint(&b));
    let lines: Vec<&str> = print.lines().collect();
    assert_eq!(lines.len(), 2, "{print}");
    assert!(lines[0].starts_with("../cards/a.toml fnv1a64="), "{print}");
    assert!(lines[1].starts_with("../cards/b.toml fnv1a64="), "{print}");

    // Two shards started by the two spellings merge to the whole run's bytes.
    let parts = [dir.join("part-0"), dir.join("part-1")];
    shard(&plain, 0, 2, &parts[0]);
    shard(&detour, 1, 2, &parts[1]);
    let merged = dir.join("merged");
    ok(&sololab(&[
        "merge",
        p(&parts[0]),
        p(&parts[1]),
        "--quiet",
        "--out",
        p(&merged),
    ]));
    let whole = dir.join("whole");
    ok(&sololab(&[
        "run",
        p(&detour),
        "--quiet",
        "--out",
        p(&whole),
    ]));
    for name in ["summary.csv", "pairs.csv", "turns.csv", "report.html"] {
        assert_eq!(read(&merged.join(name)), read(&whole.join(name)), "{name}");
    }
    assert_eq!(run_toml_numbers(&merged), run_toml_numbers(&whole));
    assert!(read(&whole.join("run.toml")).contains(sweep));
    let summary = read(&whole.join("summary.csv"));
    assert!(summary.contains(",../cards/b.toml,"), "{summary}");
    assert!(!summary.contains("exp/"), "{summary}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_work_area_naming_content_beside_its_experiment_resumes_by_another_path_and_folder() {
    // The fault of 2026-12-05: a run started as `sololab run experiments/X.toml` recorded its
    // content file joined to the path as typed, so a resume by the absolute path (what
    // scripts/resume-at-commit.sh runs) was refused as another experiment.
    let dir = folder_with_cards("content-resume", "experiments");
    std::fs::write(
        dir.join("experiments/cw.toml"),
        "name = \"cw\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 60000\nseed = 3\n\
         [setup]\ncontent = \"../cards/a.toml\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let work = out.join(sololab::lab::WORK);
    // Started from the folder (which has no strategies/: the built-in random plays).
    let child = Command::new(BIN)
        .args(["run", "experiments/cw.toml", "--quiet", "--threads", "2"])
        .args(["--out", p(&out)])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = interrupt_after_chunks(child, &work, 1);
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));

    // The work area records the content file as the experiment writes it.
    let identity = read(&work.join("identity.toml"));
    assert!(
        identity.contains("content = \"../cards/a.toml\""),
        "{identity}"
    );
    assert!(!identity.contains(p(&dir)), "{identity}");

    // `status` from the folder finds experiments/cw.toml and reads the file beside it; from a
    // folder without it the recorded name reads from there, and nothing is there.
    let status = |cwd: &Path| {
        let o = Command::new(BIN)
            .args(["status", p(&out)])
            .current_dir(cwd)
            .output()
            .unwrap();
        ok(&o);
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let shown = status(&dir);
    assert!(
        shown.contains(&format!("resumable from {}: ", dir.display())),
        "{shown}"
    );
    let elsewhere = temp_dir("content-resume-elsewhere");
    let shown = status(&elsewhere);
    assert!(
        shown.contains(&format!("not resumable from {}: ", elsewhere.display()))
            && shown.contains("cannot read content file"),
        "{shown}"
    );

    // Resumed by the experiment's absolute path from another folder (also without strategies/).
    let o = Command::new(BIN)
        .args([
            "run",
            p(&dir.join("experiments/cw.toml")),
            "--quiet",
            "--resume",
        ])
        .args(["--out", p(&out)])
        .current_dir(dir.join("cards"))
        .output()
        .unwrap();
    ok(&o);
    assert!(stderr(&o).contains("resumed"), "{}", stderr(&o));
    let summary = read(&out.join("summary.csv"));
    assert!(summary.contains(",random,60000,"), "{summary}");
    assert!(!work.exists(), "the finished run removes its work area");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&elsewhere).unwrap();
}

/// `scripts/resume-at-commit.sh` with `SOLOLAB_RESUME_DRY=1` (what it would build and run) in
/// `cwd`, on `args`.
fn resume_at_commit(args: &[&str], worktrees: &Path) -> Output {
    Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/resume-at-commit.sh"))
        .args(args)
        .env("SOLOLAB_RESUME_DRY", "1")
        .env("SOLOLAB_WORKTREES", worktrees)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

#[test]
fn resume_at_commit_takes_the_work_areas_commit_and_refuses_what_it_cannot_rebuild() {
    let dir = temp_dir("resume-at");
    let trees = dir.join("trees");
    let exp = dir.join("x.toml");
    std::fs::write(
        &exp,
        "name = \"x\"\ngame = \"race\"\nstrategies = [\"random\"]\n",
    )
    .unwrap();
    let out = dir.join("x");
    std::fs::create_dir_all(out.join(".sololab-work")).unwrap();
    // No work area: one line, exit 2.
    let none = dir.join("none");
    std::fs::create_dir_all(&none).unwrap();
    refused(
        &resume_at_commit(&[p(&exp), p(&none)], &trees),
        &["none: no work area here"],
    );
    let identity = out.join(".sololab-work/identity.toml");
    // A binary built from uncommitted code cannot be built again.
    std::fs::write(
        &identity,
        "format = \"sololab-partial-1\"\ncommit = \"0123abc-dirty\"\n",
    )
    .unwrap();
    refused(
        &resume_at_commit(&[p(&exp), p(&out)], &trees),
        &["0123abc-dirty", "cannot be rebuilt"],
    );
    // A commit this repository does not hold.
    let absent = "f".repeat(40);
    std::fs::write(&identity, format!("commit = \"{absent}\"\n")).unwrap();
    refused(
        &resume_at_commit(&[p(&exp), p(&out)], &trees),
        &[&absent, "is not in"],
    );
    // The checkout's own commit: the worktree named by it, and the run resumed into the same
    // folder with the flags passed through.
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    if !head.status.success() {
        // A source tree outside git (a crate tarball): there is no commit to resume at.
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let head = String::from_utf8(head.stdout).unwrap().trim().to_string();
    // A short hash (or a name such as HEAD) is refused: a worktree is named by a full hash.
    std::fs::write(&identity, format!("commit = \"{}\"\n", &head[..7])).unwrap();
    refused(
        &resume_at_commit(&[p(&exp), p(&out)], &trees),
        &["is not a full commit hash"],
    );
    // Strategies from strategies/ files: the run goes on from the worktree. Windows line
    // endings are read too.
    std::fs::write(
        &identity,
        format!("commit = \"{head}\"\r\norigin = \"strategies/random.toml\"\r\n"),
    )
    .unwrap();
    let o = resume_at_commit(&[p(&exp), p(&out), "--threads", "2"], &trees);
    ok(&o);
    let plan = String::from_utf8(o.stdout).unwrap();
    let tree = trees.join(&head);
    assert_eq!(
        plan,
        format!(
            "worktree: {t}\nin: {t}\nrun: {t}/target/release/sololab run {e} --out {o} --resume --threads 2\n",
            t = tree.display(),
            e = exp.display(),
            o = out.display()
        )
    );
    // The binary's built-in strategies: from a folder of the worktree without strategies/;
    // an experiment given by name is the commit's own file.
    std::fs::write(
        &identity,
        format!("commit = \"{head}\"\norigin = \"built in\"\n"),
    )
    .unwrap();
    let o = resume_at_commit(&["rift-quickstart", p(&out)], &trees);
    ok(&o);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!(
            "worktree: {t}\nin: {t}/target\nrun: {t}/target/release/sololab run {t}/experiments/rift-quickstart.toml --out {o} --resume \n",
            t = tree.display(),
            o = out.display()
        )
    );
    // An experiment that is neither a file nor a name of the commit, and flags the script
    // sets itself, are refused before anything is built.
    refused(
        &resume_at_commit(&["no-such-experiment", p(&out)], &trees),
        &["no-such-experiment: not a file, nor an experiment of commit"],
    );
    refused(
        &resume_at_commit(&[p(&exp), p(&out), "--out", "/tmp/x"], &trees),
        &["--out: the script sets"],
    );
    assert!(!trees.exists(), "a dry run makes no worktree");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_interrupted_before_its_first_chunk_says_nothing_is_kept() {
    // A deep search's first chunk (64 games of mcts-200-gods on witch_coven, minutes of play)
    // cannot finish in the two seconds before the signal: no work area exists, and the line
    // must not send the user to one (before, it named the folder and a --resume command).
    let dir = temp_dir("early-signal");
    let file = dir.join("slow.toml");
    std::fs::write(
        &file,
        "name = \"slow\"\ngame = \"gods\"\nstrategies = [\"mcts-200-gods\"]\ngames = 64\n\
         seed = 1\n[setup]\nencounter = \"witch_coven\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let child = Command::new(BIN)
        .args([
            "run",
            p(&file),
            "--quiet",
            "--threads",
            "1",
            "--out",
            p(&out),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("no chunk of games had finished, so none is kept"),
        "{err}"
    );
    assert!(!err.contains("--resume"), "{err}");
    assert!(!out.join(sololab::lab::WORK).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tune` and `sensitivity` stopped by Ctrl-C say so in one line, as `run` does, and leave
/// nothing behind (they ended silently with status 130).
#[test]
fn tune_and_sensitivity_interrupted_say_so_and_write_nothing() {
    let dir = temp_dir("tools-signal");
    let file = dir.join("slow.toml");
    std::fs::write(
        &file,
        "name = \"slow\"\ngame = \"gods\"\nstrategies = [\"mcts-200-gods\"]\ngames = 64\n\
         seed = 1\n[setup]\nencounter = \"witch_coven\"\n",
    )
    .unwrap();
    let out = dir.join("out");
    let strategy = dir.join("tuned.toml");
    for (args, kept, written) in [
        (
            vec![
                "tune",
                "gods",
                "--strategy",
                "mcts-200-gods",
                "--games",
                "64",
                "--set",
                "encounter=witch_coven",
                "--threads",
                "1",
                "--out",
                p(&strategy),
            ],
            "no strategy file was written",
            &strategy,
        ),
        (
            vec![
                "sensitivity",
                p(&file),
                "--values",
                "scoundrel.move",
                "--quiet",
                "--threads",
                "1",
                "--out",
                p(&out),
            ],
            "the report folder is as it was",
            &out,
        ),
    ] {
        let child = Command::new(BIN)
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_secs(2));
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(130), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("sololab: interrupted by signal 2; ") && last.ends_with(kept),
            "{args:?}: {err}"
        );
        assert!(!written.exists(), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_empty_work_area_is_nothing_to_resume_and_the_run_starts_afresh() {
    // A run killed outright between creating its work area and writing its identity leaves an
    // empty folder: no finished game is in it, so a run with or without --resume starts
    // afresh (before, both were refused), and plays the games a fresh run plays.
    let dir = temp_dir("empty-work");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tiny.toml");
    std::fs::write(
        &file,
        "name = \"tiny\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 20\nseed = 5\n",
    )
    .unwrap();
    let fresh = dir.join("fresh");
    ok(&sololab(&["run", p(&file), "--quiet", "--out", p(&fresh)]));
    for (name, flags) in [("a", &["--resume"][..]), ("b", &[][..])] {
        let out = dir.join(name);
        std::fs::create_dir_all(out.join(sololab::lab::WORK)).unwrap();
        let mut args = vec!["run", p(&file), "--quiet", "--out", p(&out)];
        args.extend_from_slice(flags);
        ok(&sololab(&args));
        assert_eq!(
            read(&out.join("summary.csv")),
            read(&fresh.join("summary.csv"))
        );
        assert!(!out.join(sololab::lab::WORK).exists());
    }
    // A work area with a chunk but no identity is still refused (its games are not thrown away).
    let out = dir.join("c");
    let work = out.join(sololab::lab::WORK);
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("chunk-000000000000000-000000000000010.toml"), "x").unwrap();
    refused(
        &sololab(&["run", p(&file), "--quiet", "--resume", "--out", p(&out)]),
        &["identity.toml"],
    );
    assert!(
        work.join("chunk-000000000000000-000000000000010.toml")
            .exists()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Puts a stand-in for an interrupted run's work area into report folder `out` (what `report`,
/// `merge` and a `--raw` run must carry over untouched: they never read it).
fn plant_work_area(out: &Path) -> PathBuf {
    let work = out.join(".sololab-work");
    std::fs::create_dir_all(&work).unwrap();
    let identity = work.join("identity.toml");
    std::fs::write(&identity, "format = \"sololab-partial-1\"\n# kept\n").unwrap();
    std::fs::write(work.join("chunk-0-64.toml"), "# a finished chunk\n").unwrap();
    identity
}

#[test]
fn only_the_run_that_owns_a_work_area_ends_it_report_merge_and_raw_runs_keep_it() {
    let dir = temp_dir("keep-work");
    let file = dir.join("k.toml");
    std::fs::write(
        &file,
        "name = \"k\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 20\nseed = 1\n",
    )
    .unwrap();
    let out = dir.join("k");
    let run = |extra: &[&str]| {
        let mut args = vec!["run", p(&file), "--quiet", "--out", p(&out)];
        args.extend(extra);
        sololab(&args)
    };
    ok(&run(&[]));
    let kept = |what: &str| {
        assert_eq!(
            read(&out.join(".sololab-work/identity.toml")),
            "format = \"sololab-partial-1\"\n# kept\n",
            "{what}"
        );
        assert!(
            out.join(".sololab-work/chunk-0-64.toml").is_file(),
            "{what}"
        );
    };
    // Rebuilding the page.
    plant_work_area(&out);
    ok(&sololab(&["report", p(&out)]));
    kept("report");
    assert!(out.join("report.html").is_file());
    // A merged report written over it.
    let parts: Vec<PathBuf> = (0..2).map(|k| dir.join(format!("k-{k}"))).collect();
    for (k, part) in parts.iter().enumerate() {
        shard(&file, k as u64, 2, part);
    }
    ok(&sololab(&[
        "merge",
        p(&parts[0]),
        p(&parts[1]),
        "--quiet",
        "--out",
        p(&out),
    ]));
    kept("merge");
    assert_eq!(read(&out.join("summary.csv")), {
        let whole = dir.join("whole");
        ok(&sololab(&["run", p(&file), "--quiet", "--out", p(&whole)]));
        read(&whole.join("summary.csv"))
    });
    // A --raw run (it keeps no work area of its own).
    ok(&run(&["--raw"]));
    kept("run --raw");
    assert!(out.join("games.csv").is_file());
    // The run the work area belongs to, resumed (here: a stand-in it cannot read) is refused,
    // and the area stays; removed by hand, a plain run then ends with none.
    let o = run(&["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    kept("a refused resume");
    std::fs::remove_dir_all(out.join(".sololab-work")).unwrap();
    ok(&run(&[]));
    assert!(!out.join(".sololab-work").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_strength_folder_in_the_way_is_refused_before_the_first_game() {
    let dir = temp_dir("strength-out");
    let file = dir.join("a-file");
    std::fs::write(&file, "mine\n").unwrap();
    let o = sololab(&[
        "bench",
        "--strength",
        "rift",
        "--strategy",
        "greedy",
        "--games",
        "50",
        "--strength-out",
        p(&file),
    ]);
    // One line, and no "measuring ..." line before it: no game was played.
    refused(&o, &[p(&file), "not a folder"]);
    assert_eq!(read(&file), "mine\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files of `dir` (not its folders) with their bytes, sorted by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_shard_folder_and_another_kind_of_report_never_replace_each_other() {
    // A shard's partial.toml is a kind of report like the others (before, it was no kind:
    // `run --shard` into a sensitivity folder replaced it, and `run`, `sensitivity` or `merge`
    // into a shard's folder replaced its partial totals, silently).
    let dir = temp_dir("shard-kind");
    let file = dir.join("k.toml");
    std::fs::write(
        &file,
        "name = \"k\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 200000\nseed = 3\n",
    )
    .unwrap();
    let small = ["--games", "8", "--threads", "1", "--quiet"];
    let with = |args: &[&str], out: &Path| -> Output {
        let mut all = args.to_vec();
        all.extend(small);
        all.extend(["--out", p(out)]);
        sololab(&all)
    };
    // A shard into a sensitivity analysis's folder: refused, the folder as it was.
    let sens = dir.join("sens");
    ok(&with(
        &["sensitivity", p(&file), "--values", "ruins"],
        &sens,
    ));
    let before = contents(&sens);
    assert!(before.iter().any(|(n, _)| n == "sensitivity.csv"));
    refused(
        &with(&["run", p(&file), "--shard", "0/2"], &sens),
        &[
            p(&sens),
            "holds another kind of report (sensitivity.csv), which this report (partial.toml) \
             would replace",
        ],
    );
    assert_eq!(contents(&sens), before);
    // A run, a sensitivity analysis and a merge into a shard's folder: refused, its partial
    // totals as they were.
    let (s0, s1) = (dir.join("s0"), dir.join("s1"));
    ok(&with(&["run", p(&file), "--shard", "0/2"], &s0));
    ok(&with(&["run", p(&file), "--shard", "1/2"], &s1));
    let shard = dir.join("shard");
    ok(&with(&["run", p(&file), "--shard", "0/3"], &shard));
    let before = contents(&shard);
    assert_eq!(
        before.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        [".sololab-report", "partial.toml"]
    );
    for (args, new) in [
        (vec!["run", p(&file)], "summary.csv"),
        (vec!["run", p(&file), "--raw"], "summary.csv"),
        (
            vec!["sensitivity", p(&file), "--values", "ruins"],
            "sensitivity.csv",
        ),
    ] {
        refused(
            &with(&args, &shard),
            &[
                p(&shard),
                &format!("holds another kind of report (partial.toml), which this report ({new})"),
            ],
        );
        assert_eq!(contents(&shard), before, "{args:?}");
    }
    refused(
        &sololab(&["merge", p(&s0), p(&s1), "--quiet", "--out", p(&shard)]),
        &[p(&shard), "holds another kind of report (partial.toml)"],
    );
    // `report` says a shard's folder has no page (before: that it was no report folder).
    refused(
        &sololab(&["report", p(&shard)]),
        &[p(&shard), "a shard's folder", "sololab merge"],
    );
    assert_eq!(contents(&shard), before);
    // A shard of its own kind replaces it: another shard of the same run, the same one again.
    ok(&with(&["run", p(&file), "--shard", "1/3"], &shard));
    assert!(read(&shard.join("partial.toml")).contains("shard = \"1/3\""));
    ok(&with(&["run", p(&file), "--shard", "0/2"], &shard));
    let partial = read(&shard.join("partial.toml"));
    assert!(partial.contains("shard = \"0/2\"") && partial.contains("\ngames = 4\n"));
    // An interrupted shard in its folder resumes there, to the uninterrupted shard's totals.
    let child = Command::new(BIN)
        .args([
            "run",
            p(&file),
            "--quiet",
            "--threads",
            "1",
            "--shard",
            "0/2",
        ])
        .args(["--out", p(&shard)])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let o = interrupt_after_chunks(child, &shard.join(sololab::lab::WORK), 1);
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    assert_eq!(read(&shard.join("partial.toml")), partial);
    let o = sololab(&[
        "run",
        p(&file),
        "--quiet",
        "--threads",
        "2",
        "--shard",
        "0/2",
        "--resume",
        "--out",
        p(&shard),
    ]);
    ok(&o);
    assert!(stderr(&o).contains("resumed: "), "{}", stderr(&o));
    assert!(!shard.join(sololab::lab::WORK).exists());
    let whole = dir.join("whole");
    ok(&sololab(&[
        "run",
        p(&file),
        "--quiet",
        "--shard",
        "0/2",
        "--out",
        p(&whole),
    ]));
    let totals = |d: &Path| {
        read(&d.join("partial.toml"))
            .lines()
            .filter(|l| !l.starts_with("wall_s") && !l.starts_with("threads"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(totals(&shard), totals(&whole));
    std::fs::remove_dir_all(&dir).unwrap();
}
