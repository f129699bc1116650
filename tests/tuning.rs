//! Tuning (issue 17): content values as setup axes for every registered game, through one
//! mechanism (`sololab::content::values`), `list values`, calibration and sensitivity.

use std::process::{Command, Output, Stdio};

use sololab::content::{content_values, is_value_path};
use sololab::games::rift::{Rift, RiftSetup};
use sololab::lab::{self, Experiment, Plan, RunOptions};
use sololab::{AxisValue, Game, GameKind, SetupValues, with_game};

const BIN: &str = env!("CARGO_BIN_EXE_sololab");

fn sololab(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn one(path: &str, v: AxisValue) -> SetupValues {
    let mut values = SetupValues::new();
    values.insert(path.to_string(), v);
    values
}

/// Every game: its content's values are listed by paths, and each of a sample of integer paths
/// takes its current value and a value its loader refuses, which is one line naming the path.
fn values_resolve<G: Game>() {
    let text = G::content_toml().expect("every registered game has a content file");
    let values = content_values(text).unwrap();
    let ints: Vec<_> = values
        .iter()
        .filter_map(|v| match &v.value {
            Some(AxisValue::Int(n)) => Some((v.path.clone(), *n)),
            _ => None,
        })
        .collect();
    assert!(
        ints.len() >= 20,
        "{}: {} integer values",
        G::NAME,
        ints.len()
    );
    assert!(values.iter().all(|v| is_value_path(&v.path)), "{}", G::NAME);
    // A sample spread over the file.
    for (path, n) in ints.iter().step_by(ints.len() / 10) {
        G::resolve_setup(&one(path, AxisValue::Int(*n)))
            .unwrap_or_else(|e| panic!("{}: {path} = {n}: {e}", G::NAME));
        let e = G::resolve_setup(&one(path, AxisValue::Int(1_000_000)))
            .expect_err("a million is out of every range")
            .0;
        assert!(
            e.starts_with(&format!(
                "axis '{path}': 1000000 is refused by the content: builtin:"
            )),
            "{}: {e}",
            G::NAME
        );
        assert!(!e.contains('\n'));
    }
    let e = G::resolve_setup(&one("no.such.value", AxisValue::Int(1)))
        .expect_err("unknown path")
        .0;
    assert!(
        e.starts_with("axis 'no.such.value': no 'no' in the content (there: "),
        "{e}"
    );
}

#[test]
fn every_game_takes_content_values_as_axes() {
    for &kind in GameKind::ALL {
        with_game!(kind, G => values_resolve::<G>());
    }
}

#[test]
fn a_content_value_changes_the_content_the_game_plays() {
    let setup = |hp: i64| -> RiftSetup {
        Rift::resolve_setup(&one("monster.Demon.normal.hp", AxisValue::Int(hp))).unwrap()
    };
    let demon = |s: &RiftSetup| {
        let i = s.content.monster_index("Demon").unwrap() as usize;
        s.content.monsters[i].normal.hp
    };
    assert_eq!(demon(&setup(7)), 7);
    assert_eq!(demon(&setup(1)), 1);
    let default = Rift::resolve_setup(&SetupValues::new()).unwrap();
    assert_eq!(demon(&default), 2);
    // One compiled content per distinct set of values.
    assert!(std::ptr::eq(setup(7).content, setup(7).content));
    assert!(!std::ptr::eq(setup(7).content, setup(1).content));
    // The other values are untouched.
    let s = setup(7);
    let i = s.content.monster_index("Demon").unwrap() as usize;
    assert_eq!(
        s.content.monsters[i].alpha,
        default.content.monsters[i].alpha
    );
    assert_eq!(s.content.mechs, default.content.mechs);
}

#[test]
fn a_content_value_sweeps_and_names_its_report_column() {
    let text = "name = \"v\"\ngame = \"rift\"\nstrategies = [\"random\"]\ngames = 20\nseed = 3\n\
                [setup]\nmonsters = \"Demon,Wraith,Herald\"\n\
                [sweep]\n\"monster.Demon.normal.hp\" = [1, 9]\n";
    let e = Experiment::parse(text, "v.toml").unwrap();
    let plan = Plan::<Rift>::new(e, |n| {
        lab::policy_factory::<Rift>(n, std::path::Path::new("strategies"))
    })
    .unwrap();
    assert_eq!(plan.axes, ["monster.Demon.normal.hp"]);
    let report = lab::run_experiment(&plan, &RunOptions::default());
    let csv = report.summary_csv();
    let header = csv.lines().next().unwrap();
    assert!(
        header.starts_with("experiment,game,strategy,monster.Demon.normal.hp,games"),
        "{header}"
    );
    // A 9-HP Demon is harder to kill than a 1-HP one: fewer monsters killed.
    let killed: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cols: Vec<&str> = l.split(',').collect();
            let at = header
                .split(',')
                .position(|h| h == "mean_monsters_killed")
                .unwrap();
            cols[at].parse().unwrap()
        })
        .collect();
    assert!(killed[0] > killed[1], "{killed:?}");

    // Out of range: one line at the value in the file, naming the path.
    let bad = text.replace("[1, 9]", "[1, 10]");
    let e = Experiment::parse(&bad, "v.toml").unwrap();
    let err = Plan::<Rift>::new(e, |n| {
        lab::policy_factory::<Rift>(n, std::path::Path::new("strategies"))
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("v.toml:9:33: cell monster.Demon.normal.hp=10: axis 'monster.Demon.normal.hp': 10 is refused by the content: builtin:"),
        "{err}"
    );
    assert!(err.ends_with("hp must be 1-9, got 10"), "{err}");
}

#[test]
fn list_values_prints_paths_values_and_ranges() {
    let o = sololab(&["list", "values", "rift"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let line = |path: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(path))
            .unwrap_or_else(|| panic!("no {path} in {out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        line("monster.Demon.normal.hp"),
        ["monster.Demon.normal.hp", "2", "1..=9"]
    );
    assert_eq!(line("ruins"), ["ruins", "3", "1..=3"]);
    assert_eq!(line("game"), ["game", "1", "1..=5"]);
    assert_eq!(
        line("mech.Atlas.movement"),
        ["mech.Atlas.movement", "2", "1..=6"]
    );
    let o = sololab(&["list", "values", "rift", "--set", "mech.Atlas.movement=9"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8(o.stderr).unwrap();
    assert!(
        e.starts_with("sololab: error: --set mech.Atlas.movement=9: axis 'mech.Atlas.movement': 9 is refused by the content:"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1);
}

// ---------------------------------------------------------------------------------------------
// Calibration and sensitivity on the Race fixture, whose win rates are known exactly.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use sololab::games::race::{GOAL, Race, RaceAction, TURNS};
use sololab::lab::{CalibrateSpec, Method, PolicyFactory};
use sololab::{GameRng, Policy, below};

/// Uniform over walk and run, from the policy stream.
struct Coin;
impl Policy<Race> for Coin {
    fn choose(&mut self, _s: &Race, legal: &[RaceAction], rng: &mut GameRng) -> RaceAction {
        legal[below(rng, legal.len() as u32) as usize]
    }
}

fn coin() -> PolicyFactory<Race> {
    Arc::new(|| Box::new(Coin))
}

/// The coin player's exact win probability from square `start`: each turn +1 (1/2), +3 (1/4)
/// or +0 (1/4), and the race is won when the squares reach the goal within the turns.
fn exact(start: i64) -> f64 {
    // dist[k] = probability of having gained exactly k after the turns so far
    let mut dist = vec![1.0f64];
    for _ in 0..TURNS {
        let mut next = vec![0.0; dist.len() + 3];
        for (k, p) in dist.iter().enumerate() {
            next[k] += p / 4.0;
            next[k + 1] += p / 2.0;
            next[k + 3] += p / 4.0;
        }
        dist = next;
    }
    let need = (GOAL as i64 - start).max(0) as usize;
    dist.iter().skip(need).sum()
}

fn spec(target: f64, method: Method) -> CalibrateSpec {
    CalibrateSpec {
        path: "start".into(),
        range: (0, 9),
        target,
        precision: 0.01,
        games: 400,
        max_games: 3200,
        seed: 7,
        method,
    }
}

#[test]
fn calibration_brackets_the_known_answer_on_common_random_numbers() {
    let p: Vec<f64> = (0..=9).map(exact).collect();
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    // The target halfway across the widest step of the exact curve.
    let s = (0..9)
        .max_by(|&a, &b| (p[a + 1] - p[a]).total_cmp(&(p[b + 1] - p[b])))
        .unwrap();
    let target = (p[s] + p[s + 1]) / 2.0;
    let done = AtomicU64::new(0);
    let c = lab::calibrate::<Race>(
        &SetupValues::new(),
        &spec(target, Method::Auto),
        &coin(),
        2,
        &done,
    )
    .unwrap();
    assert_eq!(c.bracket, Some((s as i64, s as i64 + 1)), "{c:?}");
    assert!(c.answer == s as i64 || c.answer == s as i64 + 1);
    // Every probe's interval holds the exact win rate of its value (seeded: not flaky).
    for pr in &c.probes {
        let (lo, hi) = pr.interval();
        assert!(
            lo <= p[pr.value as usize] && p[pr.value as usize] <= hi,
            "{pr:?}"
        );
        assert_eq!(pr.method, "bisect");
    }
    // Bisection: about log2(10) probes, not a scan.
    assert!(c.probes.len() <= 6, "{}", c.probes.len());
    // The same answer on one thread, and the probes are the same games.
    let one = lab::calibrate::<Race>(
        &SetupValues::new(),
        &spec(target, Method::Auto),
        &coin(),
        1,
        &done,
    )
    .unwrap();
    assert_eq!(lab::probes_csv(&one), lab::probes_csv(&c));
    let svg = lab::calibration_svg(&c, "race", "start", target).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("#1 "), "{svg:.200}");

    // Stochastic approximation ends next to the bracket too.
    let sa = lab::calibrate::<Race>(
        &SetupValues::new(),
        &spec(target, Method::Sa),
        &coin(),
        2,
        &done,
    )
    .unwrap();
    assert!(
        (s as i64..=s as i64 + 1).contains(&sa.answer),
        "{sa:?} (bracket {s}..={})",
        s + 1
    );
    assert!(sa.probes.iter().skip(2).all(|p| p.method == "sa"));

    // A target no value reaches (below the win rate from square 0): the nearer end, said so.
    assert!(p[0] > 0.05, "{p:?}");
    let out = lab::calibrate::<Race>(
        &SetupValues::new(),
        &spec(0.001, Method::Auto),
        &coin(),
        2,
        &done,
    )
    .unwrap();
    assert_eq!(out.answer, 0);
    assert!(out.stop.contains("outside"), "{}", out.stop);
}

#[test]
fn sensitivity_pairs_the_same_games_and_holds_the_exact_changes() {
    let mut base = SetupValues::new();
    base.insert("start".into(), AxisValue::Int(4));
    let t = lab::sensitivity_tunables::<Race>(&base, None).unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].path, "start");
    let done = AtomicU64::new(0);
    let s = lab::sensitivity::<Race>(&base, &t, 1, &coin(), 3, 2000, 2, &done).unwrap();
    let row = &s.rows[0];
    let (down, up) = (row.down.as_ref().unwrap(), row.up.as_ref().unwrap());
    assert_eq!((down.value, up.value), (3, 5));
    for (side, v) in [(down, 3), (up, 5)] {
        let truth = exact(v) - exact(4);
        assert!(
            side.change.lo <= truth && truth <= side.change.hi,
            "{side:?} against {truth}"
        );
        // Pairing: the interval is narrower than the two unpaired Wilson intervals combined.
        let (l1, h1) = lab::wilson(side.wins, 2000, lab::Z95);
        let (l0, h0) = lab::wilson(s.base_wins, 2000, lab::Z95);
        let unpaired = ((h1 - l1) / 2.0).hypot((h0 - l0) / 2.0) * 2.0;
        assert!(side.change.hi - side.change.lo < unpaired, "{side:?}");
    }
    // At the range's end a side is refused.
    base.insert("start".into(), AxisValue::Int(9));
    let t9 = lab::tunables::<Race>(&base, Some(&["start".to_string()])).unwrap();
    assert_eq!(t9[0].current, "9");
    let s9 = lab::sensitivity::<Race>(&base, &t9, 1, &coin(), 3, 100, 2, &done).unwrap();
    assert!(s9.rows[0].up.is_none() && s9.rows[0].down.is_some());
}

#[test]
fn sensitivity_is_the_same_on_one_and_two_threads() {
    let base = SetupValues::new();
    let only = [
        "monster.Demon.normal.hp".to_string(),
        "ruins".to_string(),
        "mech.Atlas.movement".to_string(),
    ];
    let t = lab::sensitivity_tunables::<Rift>(&base, Some(&only)).unwrap();
    let factory =
        lab::policy_factory::<Rift>("greedy", std::path::Path::new("strategies")).unwrap();
    let done = AtomicU64::new(0);
    let run = |threads| {
        let s = lab::sensitivity::<Rift>(&base, &t, 1, &factory, 5, 12, threads, &done).unwrap();
        (
            lab::sensitivity_csv(&s),
            lab::tornado_svg(&s, "rift", 10).unwrap(),
        )
    };
    let (csv1, svg1) = run(1);
    let (csv2, svg2) = run(2);
    assert_eq!(csv1, csv2);
    assert_eq!(svg1, svg2);
    assert!(csv1.starts_with(lab::SENSITIVITY_CSV_HEADER));
    assert_eq!(csv1.lines().count(), 4);
    // ruins = 3 is the top of its range: no step up.
    let ruins = csv1.lines().find(|l| l.contains(",ruins,")).unwrap();
    assert!(ruins.contains(",ruins,3,12,"), "{ruins}");
    assert!(ruins.split(',').nth(10).unwrap().is_empty(), "{ruins}");
}

#[test]
fn calibrate_and_sensitivity_refuse_bad_input_in_one_line() {
    let o = sololab(&[
        "calibrate",
        "rift-quickstart",
        "--value",
        "monster.Dragon.normal.hp",
        "--target",
        "0.4",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8(o.stderr).unwrap();
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("has a [sweep]"), "{e}");
    let o = sololab(&[
        "calibrate",
        "rift-quickstart",
        "--value",
        "ruins",
        "--target",
        "1.5",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = sololab(&[
        "sensitivity",
        "rift-sensitivity",
        "--values",
        "monster.Dragon.normal.hp",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8(o.stderr).unwrap();
    assert!(
        e.starts_with("sololab: error: --values 'monster.Dragon.normal.hp': no content value"),
        "{e}"
    );
}

/// A scratch folder for one test, emptied first.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-tuning-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `sensitivity` and `calibrate` write their page (report.html, with their chart inline) with
/// their other files, and `sololab report` rebuilds the same bytes from the folder alone;
/// `--no-report` leaves it out.
#[test]
fn tuning_commands_write_the_page_that_report_rebuilds() {
    let dir = scratch("pages");
    let sens = dir.join("sens");
    let o = sololab(&[
        "sensitivity",
        "rift-sensitivity",
        "--values",
        "mech.Kestrel.hp",
        "--games",
        "4",
        "--quiet",
        "--out",
        sens.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("run.toml, report.html"));
    let cal = dir.join("cal");
    let o = sololab(&[
        "calibrate",
        "rift-sensitivity",
        "--value",
        "mech.Kestrel.hp",
        "--target",
        "0.5",
        "--range",
        "1..3",
        "--games",
        "4",
        "--max-games",
        "4",
        "--quiet",
        "--out",
        cal.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (folder, chart, marks) in [
        (
            &sens,
            "tornado.svg",
            "The largest effects: <code>mech.Kestrel.hp</code>",
        ),
        (
            &cal,
            "calibration.svg",
            "Answer: <code>mech.Kestrel.hp</code> = <b>",
        ),
    ] {
        let page = std::fs::read_to_string(folder.join("report.html")).unwrap();
        let svg = std::fs::read_to_string(folder.join(chart)).unwrap();
        assert!(page.contains(svg.trim_end()), "{chart} is inline");
        assert!(page.contains(marks), "{page}");
        std::fs::write(folder.join("report.html"), "stale").unwrap();
        let o = sololab(&["report", folder.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            std::fs::read_to_string(folder.join("report.html")).unwrap(),
            page
        );
        let marker = std::fs::read_to_string(folder.join(".sololab-report")).unwrap();
        assert!(
            marker.contains(chart) && marker.contains("report.html"),
            "{marker}"
        );
    }
    let bare = dir.join("bare");
    let o = sololab(&[
        "sensitivity",
        "rift-sensitivity",
        "--values",
        "mech.Kestrel.hp",
        "--games",
        "2",
        "--quiet",
        "--no-report",
        "--out",
        bare.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(bare.join("tornado.svg").is_file() && !bare.join("report.html").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
