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
