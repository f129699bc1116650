//! The skill ladder of an experiment (`[ladder]`, issue 15), on the Race fixture: `ladder.csv`
//! has, per setup cell, each rung's win rate with its Wilson interval and a note where two
//! neighbours are not separated.

use std::sync::Arc;

use sololab::games::race::{GOAL, Race, RaceAction, TURNS};
use sololab::lab::{self, ErrorKind, Experiment, Plan, PolicyFactory, RunOptions};
use sololab::{GameRng, Policy};

/// Always walks (loses from square 0, wins from square 9).
struct Walker;
impl Policy<Race> for Walker {
    fn choose(&mut self, _s: &Race, _legal: &[RaceAction], _rng: &mut GameRng) -> RaceAction {
        RaceAction::Walk
    }
}

/// Walks when walking still reaches the goal in time, else runs (the optimal play).
struct Pacer;
impl Policy<Race> for Pacer {
    fn choose(&mut self, s: &Race, _legal: &[RaceAction], _rng: &mut GameRng) -> RaceAction {
        if s.position + (TURNS - s.turn) >= GOAL {
            RaceAction::Walk
        } else {
            RaceAction::Run
        }
    }
}

fn strategy(name: &str) -> Result<PolicyFactory<Race>, ErrorKind> {
    match name {
        "walk" => Ok(Arc::new(|| Box::new(Walker))),
        "pace" => Ok(Arc::new(|| Box::new(Pacer))),
        _ => Err(ErrorKind::UnknownStrategy {
            name: name.to_string(),
            valid: vec!["pace".into(), "walk".into()],
        }),
    }
}

const TEXT: &str = "name = \"race-ladder\"\ngame = \"race\"\nstrategies = [\"pace\", \"walk\"]\n\
                    games = 400\nseed = 5\n[sweep]\nstart = [0, 9]\n\
                    [ladder]\nstrategies = [\"walk\", \"pace\"]\n";

#[test]
fn ladder_csv_gives_each_rung_per_setup_cell_and_flags_overlapping_neighbours() {
    let plan = Plan::<Race>::new(Experiment::parse(TEXT, "race.toml").unwrap(), strategy).unwrap();
    let report = lab::run_experiment(
        &plan,
        &RunOptions {
            threads: 2,
            raw: false,
        },
    );
    let csv = lab::ladder_csv(&report).expect("a ladder");
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "experiment",
            "game",
            "start",
            "rung",
            "strategy",
            "games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "separated",
            "note"
        ]
    );
    assert_eq!(rows.len(), 5, "{csv}");
    // Start 0: walking never arrives in time; pacing (running when behind) sometimes does.
    assert_eq!(&rows[1][2..7], ["0", "1", "walk", "400", "0"]);
    assert_eq!(rows[1][10], "");
    assert_eq!(&rows[2][2..5], ["0", "2", "pace"]);
    let pace_wins: u64 = rows[2][6].parse().unwrap();
    assert!(pace_wins > 20, "{csv}");
    assert_eq!(&rows[2][10..], ["true", ""]);
    // Start 9: both win every game, so the rungs are not separated.
    assert_eq!(&rows[3][2..7], ["9", "1", "walk", "400", "400"]);
    assert_eq!(&rows[4][2..7], ["9", "2", "pace", "400", "400"]);
    assert_eq!(
        &rows[4][10..],
        [
            "false",
            "not separated from walk (Wilson intervals overlap)"
        ]
    );
    // The interval columns are the summary's.
    let summary = report.summary_csv();
    let pace0 = summary.lines().find(|l| l.contains(",pace,0,")).unwrap();
    assert!(
        pace0.contains(&format!("{},{},{}", rows[2][7], rows[2][8], rows[2][9])),
        "{pace0}"
    );
    // The ladder is part of the experiment as run.
    assert!(
        report
            .run_toml()
            .contains("[experiment.ladder]\nstrategies = [\"walk\", \"pace\"]\n"),
        "{}",
        report.run_toml()
    );
}

#[test]
fn a_rung_above_that_does_worse_is_noted() {
    let text = TEXT.replace("[\"walk\", \"pace\"]\n", "[\"pace\", \"walk\"]\n");
    let plan = Plan::<Race>::new(Experiment::parse(&text, "race.toml").unwrap(), strategy).unwrap();
    let report = lab::run_experiment(
        &plan,
        &RunOptions {
            threads: 1,
            raw: false,
        },
    );
    let csv = lab::ladder_csv(&report).unwrap();
    let walk0 = csv.lines().nth(2).unwrap();
    assert!(
        walk0.ends_with(",true,below pace (intervals apart)"),
        "{csv}"
    );
}

#[test]
fn no_ladder_no_ladder_csv() {
    let text = TEXT.split("[ladder]").next().unwrap();
    let plan = Plan::<Race>::new(Experiment::parse(text, "race.toml").unwrap(), strategy).unwrap();
    let report = lab::run_experiment(
        &plan,
        &RunOptions {
            threads: 1,
            raw: false,
        },
    );
    assert_eq!(lab::ladder_csv(&report), None);
    assert!(!report.run_toml().contains("[experiment.ladder]"));
}

#[test]
fn bad_ladders_are_located_errors() {
    let cases = [
        (
            TEXT.replace("[\"walk\", \"pace\"]\n", "[\"walk\", \"run\"]\n"),
            "race.toml:9:23: ladder: strategy 'run' is not in strategies (valid: pace, walk)",
        ),
        (
            TEXT.replace("[\"walk\", \"pace\"]\n", "[\"walk\"]\n"),
            "race.toml:9:14: ladder: name at least two strategies, weakest first",
        ),
        (
            TEXT.replace("[\"walk\", \"pace\"]\n", "[\"walk\", \"walk\"]\n"),
            "race.toml:9:23: ladder: strategy 'walk' is listed twice",
        ),
        (
            TEXT.replace("strategies = [\"walk\", \"pace\"]\n", "rungs = 2\n"),
            "race.toml:9:1: unknown field `rungs`",
        ),
    ];
    for (text, want) in cases {
        let err = Experiment::parse(&text, "race.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(want), "{err}\nwanted {want}");
    }
}
