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
use sololab::lab::{CalibrateSpec, Domain, Method, PolicyFactory, Step};
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
        domain: Domain::Int(0, 9),
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
    assert_eq!(
        c.bracket,
        Some((AxisValue::Int(s as i64), AxisValue::Int(s as i64 + 1))),
        "{c:?}"
    );
    assert!(c.answer == AxisValue::Int(s as i64) || c.answer == AxisValue::Int(s as i64 + 1));
    // Every probe's interval holds the exact win rate of its value (seeded: not flaky).
    for pr in &c.probes {
        let (lo, hi) = pr.interval();
        let v = lab::number(&pr.value) as usize;
        assert!(lo <= p[v] && p[v] <= hi, "{pr:?}");
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
        (s as f64..=s as f64 + 1.0).contains(&lab::number(&sa.answer)),
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
    assert_eq!(out.answer, AxisValue::Int(0));
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
    let s =
        lab::sensitivity::<Race>(&base, &t, Step::whole(1), &coin(), 3, 2000, 2, &done).unwrap();
    let row = &s.rows[0];
    let (down, up) = (row.down.as_ref().unwrap(), row.up.as_ref().unwrap());
    assert_eq!(
        (down.value.clone(), up.value.clone()),
        (AxisValue::Int(3), AxisValue::Int(5))
    );
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
    let s9 =
        lab::sensitivity::<Race>(&base, &t9, Step::whole(1), &coin(), 3, 100, 2, &done).unwrap();
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
        let s =
            lab::sensitivity::<Rift>(&base, &t, Step::whole(1), &factory, 5, 12, threads, &done)
                .unwrap();
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
    // One line each, naming what is wrong (a negative number is a value, not a flag; a
    // precision as an experiment file allows it; a value named twice).
    for (args, expected) in [
        (
            &[
                "calibrate",
                "rift-sensitivity",
                "--value",
                "ruins",
                "--target",
                "-0.1",
            ][..],
            "expected a number in 0..=1",
        ),
        (
            &[
                "calibrate",
                "rift-sensitivity",
                "--value",
                "ruins",
                "--target",
                "0.4",
                "--precision",
                "0",
            ][..],
            "expected a half-width in 0.0001..=0.5",
        ),
        (
            &[
                "sensitivity",
                "rift-sensitivity",
                "--values",
                "ruins",
                "ruins",
            ][..],
            "'ruins' is listed twice",
        ),
        (
            &[
                "calibrate",
                "rift-sensitivity",
                "--value",
                "alphas",
                "--target",
                "0.5",
            ][..],
            "'alphas': its default is the content's (campaign card)",
        ),
        (
            &["sensitivity", "rift-sensitivity", "--seed", "-3"][..],
            "-3",
        ),
        (
            &[
                "calibrate",
                "rift-sensitivity",
                "--value",
                "ruins",
                "--target",
                "0.5",
                "--games",
                "20",
                "--max-games",
                "1",
            ][..],
            "--max-games 1: fewer than the 20 games a probe starts with",
        ),
        (
            &["bench", "--game", "rift", "--game", "rift"][..],
            "--game rift: listed twice",
        ),
        // The flag the setting came with, not `--set`.
        (
            &[
                "bench",
                "--strength",
                "rift",
                "--strategy",
                "random",
                "--strength-set",
                "ruins=9",
            ][..],
            "error: --strength-set ruins=9: ",
        ),
        (
            &[
                "bench",
                "--strength",
                "rift",
                "--strategy",
                "random",
                "--strategy",
                "random",
            ][..],
            "--strategy random: listed twice",
        ),
    ] {
        let o = sololab(args);
        let e = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(expected), "{args:?}: {e}");
        assert!(!e.contains("unexpected argument"), "{args:?}: {e}");
    }
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
    // Each command replaces only its own kind of report: a run into the sensitivity folder (the
    // experiment file is the same) and a sensitivity analysis into the calibration's are
    // refused with one line, exit 2, and leave the folder's files as they were.
    let files = |d: &std::path::Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    // Runs `args` with `--out folder`: refused with one line and exit 2, the folder as it was.
    let refused = |args: &[&str], folder: &std::path::Path| -> String {
        let before = files(folder);
        let mut all = args.to_vec();
        all.extend(["--games", "2", "--quiet", "--out", folder.to_str().unwrap()]);
        let o = sololab(&all);
        assert_eq!(o.status.code(), Some(2));
        let e = String::from_utf8(o.stderr).unwrap();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert_eq!(files(folder), before, "{} changed", folder.display());
        e
    };
    let e = refused(&["run", "rift-sensitivity"], &sens);
    assert!(
        e.contains("holds another kind of report (sensitivity.csv), which this report (summary.csv) would replace"),
        "{e}"
    );
    let e = refused(
        &[
            "sensitivity",
            "rift-sensitivity",
            "--values",
            "mech.Kestrel.hp",
        ],
        &cal,
    );
    assert!(
        e.contains("(probes.csv), which this report (sensitivity.csv)"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Real values: a fixture game whose win rate is its one real content value, and the Gods.

use sololab::games::gods::Gods;
use sololab::setup::Real;
use sololab::{Axis, AxisKind, Outcome, PositionError, SetupError, Tracer};

/// A one-flip fixture: the game is won with probability `coin.p` (a real content value in
/// `0..=1`), so its win rate is a known function of a real value: the value itself.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Flip {
    p: f64,
    done: Option<bool>,
}

impl std::fmt::Display for Flip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "p {} {:?}", self.p, self.done)
    }
}

/// The fixture's content: the probability of a win.
#[derive(Debug, PartialEq)]
struct FlipContent {
    p: f64,
}

const FLIP_TOML: &str = "# the fixture's one card\n[coin]\np = 0.5 # win probability\n";

static FLIP_AXES: [Axis; 1] = [Axis {
    name: "content",
    kind: AxisKind::Name,
    default: "builtin",
    doc: "content file (fixture)",
}];

fn flip_compile(text: &str, source: &str) -> Result<FlipContent, SetupError> {
    let t: toml::Table =
        toml::from_str(text).map_err(|e| SetupError(format!("{source}: {}", e.message())))?;
    let p = t
        .get("coin")
        .and_then(|c| c.get("p"))
        .and_then(toml::Value::as_float)
        .ok_or_else(|| SetupError(format!("{source}: coin.p: expected a number")))?;
    if !(0.0..=1.0).contains(&p) {
        return Err(SetupError(format!("{source}: coin.p: {p} is not in 0..=1")));
    }
    Ok(FlipContent { p })
}

fn flip_builtin() -> &'static FlipContent {
    static C: std::sync::OnceLock<FlipContent> = std::sync::OnceLock::new();
    C.get_or_init(|| flip_compile(FLIP_TOML, "builtin").unwrap())
}

impl Game for Flip {
    type Action = u8;
    type Setup = &'static FlipContent;
    const NAME: &'static str = "flip";
    const MAX_DECISIONS: u32 = 1;
    fn axes() -> &'static [Axis] {
        &FLIP_AXES
    }
    fn resolve_setup(values: &SetupValues) -> Result<Self::Setup, SetupError> {
        sololab::setup::AxisReader::new(Self::NAME, &FLIP_AXES, values)?;
        sololab::content::resolve_content(values, flip_builtin, FLIP_TOML, flip_compile)
    }
    fn axis_names(_setup: &Self::Setup, _axis: &str) -> Vec<String> {
        Vec::new()
    }
    fn content_toml() -> Option<&'static str> {
        Some(FLIP_TOML)
    }
    fn new_game(setup: &Self::Setup, _rng: &mut GameRng) -> Self {
        Flip {
            p: setup.p,
            done: None,
        }
    }
    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.done.is_none() {
            out.push(0);
        }
    }
    fn apply_traced<T: Tracer>(&mut self, _action: u8, rng: &mut GameRng, _trace: &mut T) {
        // Won when a uniform draw of 2^20 steps falls below p: a win rate of p to 1e-6, and
        // with common random numbers a larger p wins every game a smaller one wins.
        let draw = below(rng, 1 << 20) as f64 / (1u32 << 20) as f64;
        self.done = Some(draw < self.p);
    }
    fn result_code(&self) -> u8 {
        self.done.map_or(0, |w| {
            if w { Outcome::Won } else { Outcome::Lost(0) }.code()
        })
    }
    const LOSS_CAUSES: &'static [&'static str] = &["tails"];
    const FEATURE_NAMES: &'static [&'static str] = &[];
    fn features(&self, _out: &mut [f64]) {}
    const METRIC_NAMES: &'static [&'static str] = &[];
    fn metrics(&self, _out: &mut [i64]) {}
    fn turns(&self) -> u32 {
        u32::from(self.done.is_some())
    }
    fn action_text(&self, _action: u8) -> String {
        "flip".into()
    }
    fn to_position(&self) -> String {
        String::new()
    }
    fn from_position(_text: &str) -> Result<Self, PositionError> {
        Err(PositionError {
            line: 1,
            message: "no positions".into(),
        })
    }
}

struct Flipper;
impl Policy<Flip> for Flipper {
    fn choose(&mut self, _s: &Flip, legal: &[u8], _rng: &mut GameRng) -> u8 {
        legal[0]
    }
}

fn flipper() -> PolicyFactory<Flip> {
    Arc::new(|| Box::new(Flipper))
}

fn real(x: f64) -> AxisValue {
    AxisValue::Real(Real::new(x).unwrap())
}

#[test]
fn a_real_content_value_is_listed_set_and_refused_with_its_path() {
    // Listed with its current value and the range the loader accepts, ends included.
    let t = lab::tunables::<Flip>(&SetupValues::new(), None).unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].path, "coin.p");
    assert_eq!(t[0].current, "0.5");
    assert_eq!(t[0].real(), Some(0.5));
    assert_eq!(t[0].range.to_string(), "[0.0, 1.0]");
    assert_eq!(lab::values_text(&t), "coin.p  0.5  [0.0, 1.0]\n");
    // Set to a real (and to a whole number): the game plays it.
    assert_eq!(
        Flip::resolve_setup(&one("coin.p", real(0.25))).unwrap().p,
        0.25
    );
    assert_eq!(
        Flip::resolve_setup(&one("coin.p", AxisValue::Int(1)))
            .unwrap()
            .p,
        1.0
    );
    // Out of range: one line naming the path, with the loader's reason.
    let e = Flip::resolve_setup(&one("coin.p", real(1.5)))
        .unwrap_err()
        .0;
    assert_eq!(
        e,
        "axis 'coin.p': 1.5 is refused by the content: builtin: coin.p: 1.5 is not in 0..=1"
    );
    // The text the game gets is the content with the number written exactly.
    for x in [0.1, 1e-7, 0.123456789012345_f64, 1.0 / 3.0] {
        let out = sololab::content::set_values(FLIP_TOML, &[("coin.p".into(), real(x))]).unwrap();
        let back: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(back["coin"]["p"].as_float(), Some(x), "{out}");
        assert!(out.ends_with(" # win probability\n"), "{out}");
    }
    // Not finite: refused before the game, naming the path (experiment and --set).
    let text = "name = \"f\"\ngame = \"gods\"\nstrategies = [\"greedy\"]\ngames = 2\nseed = 1\n\
                [setup]\n\"scoundrel.move\" = inf\n";
    let err = Experiment::parse(text, "f.toml").unwrap_err().to_string();
    assert_eq!(
        err,
        "f.toml:7:20: axis 'scoundrel.move': inf is not a finite number"
    );
    assert!(Real::new(f64::NAN).is_none() && Real::new(f64::INFINITY).is_none());
    // A real for a whole-number value or axis: refused, saying what was expected.
    let e = Gods::resolve_setup(&one("fate.wounds_to_perish", real(2.5)))
        .unwrap_err()
        .0;
    assert_eq!(
        e,
        "axis 'fate.wounds_to_perish': 2.5 is a real number, expected an integer"
    );
}

#[test]
fn calibration_finds_a_known_real_answer() {
    // The fixture's win rate is p itself: calibrating p to a target answers the target.
    let target = 0.3;
    let spec = CalibrateSpec {
        path: "coin.p".into(),
        domain: Domain::Real {
            lo: 0.05,
            hi: 0.95,
            resolution: 0.01,
        },
        target,
        precision: 0.02,
        games: 500,
        max_games: 4000,
        seed: 11,
        method: Method::Auto,
    };
    let done = AtomicU64::new(0);
    let c = lab::calibrate::<Flip>(&SetupValues::new(), &spec, &flipper(), 2, &done).unwrap();
    let answer = lab::number(&c.answer);
    assert!(matches!(c.answer, AxisValue::Real(_)), "{c:?}");
    assert!((answer - target).abs() <= 0.04, "{c:?}");
    // Every probe's interval holds its value's exact win rate (seeded: not flaky), and the
    // values are reals between the ends, bisecting: ends, then 0.5, 0.275, ...
    for p in &c.probes {
        let (lo, hi) = p.interval();
        let x = lab::number(&p.value);
        assert!(lo <= x && x <= hi, "{p:?}");
        assert_eq!(p.method, "bisect");
    }
    let values: Vec<String> = c.probes.iter().map(|p| p.value.to_string()).collect();
    assert_eq!(values[..4], ["0.05", "0.95", "0.5", "0.275"], "{values:?}");
    assert!(c.probes.len() <= 9, "{values:?}");
    // Stochastic approximation over reals lands near the target too, on the resolution's grid.
    let sa = lab::calibrate::<Flip>(
        &SetupValues::new(),
        &CalibrateSpec {
            method: Method::Sa,
            ..spec.clone()
        },
        &flipper(),
        2,
        &done,
    )
    .unwrap();
    assert!((lab::number(&sa.answer) - target).abs() <= 0.05, "{sa:?}");
    for p in sa.probes.iter().skip(2) {
        let k = (lab::number(&p.value) - 0.05) / 0.01;
        assert!((k - k.round()).abs() < 1e-6, "{p:?} is off the grid");
    }
    // A tighter resolution, bisection only: the bracket closes to that width around the target.
    let fine = lab::calibrate::<Flip>(
        &SetupValues::new(),
        &CalibrateSpec {
            method: Method::Bisect,
            precision: 0.001,
            max_games: 500,
            domain: Domain::Real {
                lo: 0.05,
                hi: 0.95,
                resolution: 0.005,
            },
            ..spec.clone()
        },
        &flipper(),
        2,
        &done,
    )
    .unwrap();
    let (a, b) = fine.bracket.clone().expect("bisection closes a bracket");
    let (a, b) = (lab::number(&a), lab::number(&b));
    assert!(b > a && b - a <= 0.005, "{fine:?}");
    assert!(a <= target + 0.05 && b >= target - 0.05, "{fine:?}");
    let svg = lab::calibration_svg(&c, "flip", "coin.p", target).unwrap();
    assert!(svg.contains("coin.p") && svg.contains("#3 "), "{svg:.300}");
}

#[test]
fn sensitivity_moves_a_real_value_by_a_fraction_and_ranks_it_with_whole_ones() {
    assert_eq!(Step::whole(1).move_real(4.0, false), Real::new(3.6));
    assert_eq!(Step::whole(1).move_real(4.0, true), Real::new(4.4));
    assert_eq!(Step::whole(1).move_real(0.0, true), Real::new(0.1));
    let step = Step { int: 1, real: 0.2 };
    assert_eq!(step.move_real(-2.5, false), Real::new(-3.0));
    // The fixture at p = 0.5 moved 20%: 0.4 and 0.6, a change of exactly -0.1 and +0.1 in
    // expectation, held by the paired intervals; the same games, so the pairs are nested.
    let base = SetupValues::new();
    let t = lab::sensitivity_tunables::<Flip>(&base, None).unwrap();
    let done = AtomicU64::new(0);
    let s = lab::sensitivity::<Flip>(&base, &t, step, &flipper(), 5, 2000, 2, &done).unwrap();
    let row = &s.rows[0];
    assert_eq!(row.current, real(0.5));
    let (down, up) = (row.down.as_ref().unwrap(), row.up.as_ref().unwrap());
    assert_eq!(
        (down.value.clone(), up.value.clone()),
        (real(0.4), real(0.6))
    );
    for (side, truth) in [(down, -0.1), (up, 0.1)] {
        assert!(
            side.change.lo <= truth && truth <= side.change.hi,
            "{side:?} against {truth}"
        );
    }
    let csv = lab::sensitivity_csv(&s);
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("1,coin.p,0.5,2000,"),
        "{csv}"
    );
    assert!(csv.contains(",0.4,") && csv.contains(",0.6,"), "{csv}");
    // At the end of its range a side is refused (p = 1.0 cannot go up 20%).
    let top = one("coin.p", real(1.0));
    let t = lab::sensitivity_tunables::<Flip>(&top, Some(&["coin.p".to_string()])).unwrap();
    let s = lab::sensitivity::<Flip>(&top, &t, step, &flipper(), 5, 50, 2, &done).unwrap();
    assert!(s.rows[0].up.is_none() && s.rows[0].down.is_some());
}

#[test]
fn the_gods_real_values_are_listed_swept_and_refused_from_the_command_line() {
    let o = sololab(&["list", "values", "gods", "--set", "encounter=brute_hunt"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let line = |path: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{path} ")))
            .unwrap_or_else(|| panic!("no {path} in {out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        line("scoundrel.move"),
        ["scoundrel.move", "4.0", "[0.01,", "600.0]"]
    );
    assert_eq!(
        line("scoundrel.base_radius"),
        ["scoundrel.base_radius", "0.5", "[0.01,", "2.0]"]
    );
    assert_eq!(
        line("fate.wounds_to_perish"),
        ["fate.wounds_to_perish", "10", "1..=15"]
    );
    for (set, says) in [
        (
            "scoundrel.move=700.5",
            "axis 'scoundrel.move': 700.5 is refused by the content: builtin:",
        ),
        (
            "scoundrel.move=1e999",
            "axis 'scoundrel.move': \"1e999\" is not a finite number",
        ),
        (
            "scoundrel.move=fast",
            "axis 'scoundrel.move': \"fast\" is a string, expected a number",
        ),
    ] {
        let o = sololab(&["list", "values", "gods", "--set", set]);
        assert_eq!(o.status.code(), Some(2), "{set}");
        let e = String::from_utf8(o.stderr).unwrap();
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(says), "{set}: {e}");
    }
    // A sweep of reals: the column is the path, the cells the values as written.
    let text = "name = \"r\"\ngame = \"gods\"\nstrategies = [\"greedy\"]\ngames = 30\nseed = 1\n\
                [setup]\nencounter = \"brute_hunt\"\n\
                [sweep]\n\"scoundrel.max_range\" = [9.6, 24.0]\n";
    let e = Experiment::parse(text, "r.toml").unwrap();
    let plan = Plan::<Gods>::new(e, |n| {
        lab::policy_factory::<Gods>(n, std::path::Path::new("strategies"))
    })
    .unwrap();
    let csv = lab::run_experiment(&plan, &RunOptions::default()).summary_csv();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(
        rows[0].starts_with("experiment,game,strategy,scoundrel.max_range,games"),
        "{}",
        rows[0]
    );
    assert!(rows[1].starts_with("r,gods,greedy,9.6,30,"), "{}", rows[1]);
    assert!(rows[2].starts_with("r,gods,greedy,24.0,30,"), "{}", rows[2]);
    // Out of range in a sweep: one line at the value, naming the path.
    let bad = text.replace("9.6", "0.0");
    let e = Experiment::parse(&bad, "r.toml").unwrap();
    let err = Plan::<Gods>::new(e, |n| {
        lab::policy_factory::<Gods>(n, std::path::Path::new("strategies"))
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("r.toml:9:26: cell scoundrel.max_range=0.0: axis 'scoundrel.max_range': 0.0 is refused by the content: builtin:"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn tuning_finds_a_content_value_in_either_spelling() {
    // `monster[1]` is the Demon. `sensitivity --values` refused the index spelling that `run`
    // takes, and a `[setup]` in it was not the value the tuning commands list and move.
    let base = one("monster[1].normal.hp", AxisValue::Int(5));
    let only = ["monster[1].normal.hp".to_string()];
    let t = lab::tunables::<Rift>(&base, Some(&only)).unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].path, "monster.Demon.normal.hp");
    assert_eq!(t[0].current, "5");
    assert_eq!(
        lab::canonical_setup::<Rift>(&base).unwrap(),
        one("monster.Demon.normal.hp", AxisValue::Int(5))
    );
    let both = [
        "monster[1].normal.hp".to_string(),
        "monster.Demon.normal.hp".to_string(),
    ];
    assert_eq!(
        lab::sensitivity_tunables::<Rift>(&SetupValues::new(), Some(&both))
            .unwrap_err()
            .0,
        "'monster.Demon.normal.hp' is listed twice (first as 'monster[1].normal.hp', the same \
         content value)"
    );
    let mut aliased = base.clone();
    aliased.insert("monster.Demon.normal.hp".into(), AxisValue::Int(3));
    assert_eq!(
        lab::canonical_setup::<Rift>(&aliased).unwrap_err().0,
        "axis 'monster[1].normal.hp' is given twice (first as 'monster.Demon.normal.hp')"
    );
}
