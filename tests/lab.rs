//! The lab through its generic API, on the Race fixture (fast, with known answers): plans and
//! their errors, the runner's reproducibility, the statistics and the report files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sololab::games::beyond::Beyond;
use sololab::games::gods::Gods;
use sololab::games::race::{Race, RaceAction};
use sololab::games::rift::Rift;
use sololab::lab::{
    self, ErrorKind, Experiment, ExperimentError, Plan, PolicyFactory, Report, RunOptions, Z95,
    wilson,
};
use sololab::{Game, GameRng, Policy, below};

/// Uniform over the legal actions, from the policy stream.
struct Coin;
impl Policy<Race> for Coin {
    fn choose(&mut self, _s: &Race, legal: &[RaceAction], rng: &mut GameRng) -> RaceAction {
        legal[below(rng, legal.len() as u32) as usize]
    }
}

/// Always walks.
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
        let turns_left = sololab::games::race::TURNS - s.turn;
        if s.position + turns_left >= sololab::games::race::GOAL {
            RaceAction::Walk
        } else {
            RaceAction::Run
        }
    }
}

fn strategy(name: &str) -> Result<PolicyFactory<Race>, ErrorKind> {
    match name {
        "coin" | "coin2" => Ok(Arc::new(|| Box::new(Coin))),
        "walk" => Ok(Arc::new(|| Box::new(Walker))),
        "pace" => Ok(Arc::new(|| Box::new(Pacer))),
        _ => Err(ErrorKind::UnknownStrategy {
            name: name.to_string(),
            valid: vec!["coin".into(), "coin2".into(), "pace".into(), "walk".into()],
        }),
    }
}

fn experiment(strategies: &str, games: u64, seed: u64, rest: &str) -> String {
    format!(
        "name = \"race-test\"\ngame = \"race\"\nstrategies = [{strategies}]\ngames = {games}\n\
         seed = {seed}\n{rest}"
    )
}

fn plan(text: &str) -> Result<Plan<Race>, sololab::lab::ExperimentError> {
    Plan::<Race>::new(Experiment::parse(text, "race.toml")?, strategy)
}

fn run(text: &str, threads: usize, raw: bool) -> Report {
    lab::run_experiment(&plan(text).unwrap(), &RunOptions { threads, raw })
}

const SWEEP: &str = "[sweep]\nstart = [0, 2, 4]\n";

#[test]
fn one_and_two_threads_give_byte_identical_reports() {
    let text = experiment("\"coin\", \"pace\"", 3000, 7, SWEEP);
    let one = run(&text, 1, true);
    let two = run(&text, 2, true);
    assert_eq!((one.threads, two.threads), (1, 2));
    assert_eq!(one.summary_csv(), two.summary_csv());
    assert_eq!(one.games_csv(), two.games_csv());
    assert_eq!(one.total_games(), 2 * 3 * 3000);
}

#[test]
fn same_seed_same_numbers_other_seed_other_numbers() {
    let a = run(&experiment("\"coin\"", 2000, 11, SWEEP), 2, false).summary_csv();
    let b = run(&experiment("\"coin\"", 2000, 11, SWEEP), 2, false).summary_csv();
    let c = run(&experiment("\"coin\"", 2000, 12, SWEEP), 2, false).summary_csv();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn cells_share_their_seeds_common_random_numbers() {
    // Two cells with the same policy and setup see the same draws game for game.
    let r = run(&experiment("\"coin\", \"coin2\"", 500, 3, ""), 2, true);
    assert_eq!(r.cells[0].totals, r.cells[1].totals);
    let rows = r.rows.as_ref().unwrap();
    for i in 0..500 {
        assert_eq!(rows[i].outcome, rows[500 + i].outcome);
        assert_eq!(rows[i].turns, rows[500 + i].turns);
    }
}

#[test]
fn known_answers_of_the_race() {
    let r = run(&experiment("\"walk\", \"pace\"", 1000, 1, SWEEP), 2, false);
    // Cells: strategy first, then start 0, 2, 4.
    let cell = |s: &str, start: i64| {
        r.cells
            .iter()
            .find(|c| c.strategy == s && c.values == [sololab::AxisValue::Int(start)])
            .map(|c| c.totals.clone())
            .unwrap()
    };
    assert_eq!(r.cells.len(), 6);
    assert_eq!(r.cells[0].strategy, "walk");
    assert_eq!(r.cells[3].strategy, "pace");
    // Walking 6 squares from 0 or 2 never arrives; from 4 it arrives on the last turn.
    let (w0, w4) = (cell("walk", 0), cell("walk", 4));
    assert_eq!(
        (w0.games, w0.wins, w0.lost[0], w0.turns),
        (1000, 0, 1000, 6000)
    );
    assert_eq!(w0.metrics, [6000]);
    assert_eq!((w4.wins, w4.turns, w4.metrics[0]), (1000, 6000, 10_000));
    // Pacing from 4 walks too; from 0 it must run on coin flips and sometimes wins.
    assert_eq!(cell("pace", 4).wins, 1000);
    let p0 = cell("pace", 0);
    assert!(p0.wins > 0 && p0.wins < 1000, "{p0:?}");
    assert_eq!(p0.wins + p0.lost[0], 1000);
}

#[test]
fn summary_csv_has_the_documented_columns() {
    let r = run(
        &experiment("\"walk\"", 10, 1, "[sweep]\nstart = [4, 0]\n"),
        1,
        false,
    );
    let csv = r.summary_csv();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "experiment,game,strategy,start,games,wins,win_rate,ci_low,ci_high,mean_turns,\
         lost_out_of_time,mean_final_position"
    );
    assert_eq!(
        lines.next().unwrap(),
        "race-test,race,walk,4,10,10,1.0000,0.7225,1.0000,6.0000,0,10.0000"
    );
    assert_eq!(
        lines.next().unwrap(),
        "race-test,race,walk,0,10,0,0.0000,0.0000,0.2775,6.0000,10,6.0000"
    );
    assert_eq!(lines.next(), None);
    assert!(r.table().contains("walk"));
}

#[test]
fn raw_rows_are_sorted_and_match_single_games() {
    let r = run(&experiment("\"coin\"", 300, 5, SWEEP), 2, true);
    let rows = r.rows.as_ref().unwrap();
    assert_eq!(rows.len(), 900);
    for (k, row) in rows.iter().enumerate() {
        assert_eq!((row.cell, row.index), (k / 300, (k % 300) as u64));
    }
    // Game 17 of the start = 2 cell, replayed alone.
    let end = lab::play_game::<Race>(&2, &mut Coin, 5, 17, &mut Vec::new());
    assert_eq!(rows[317].outcome, end.outcome().unwrap());
    assert_eq!(rows[317].turns, end.turns());
    let csv = r.games_csv().unwrap();
    assert!(csv.starts_with("cell,strategy,start,index,result,cause,turns,final_position\n"));
    assert_eq!(csv.lines().count(), 901);
}

#[test]
fn wilson_interval_known_values() {
    let f = |w, n| {
        let (lo, hi) = wilson(w, n, Z95);
        (format!("{lo:.4}"), format!("{hi:.4}"))
    };
    assert_eq!(f(50, 100), ("0.4038".into(), "0.5962".into()));
    assert_eq!(f(0, 10), ("0.0000".into(), "0.2775".into()));
    assert_eq!(f(10, 10), ("0.7225".into(), "1.0000".into()));
    assert_eq!(f(1, 4), ("0.0456".into(), "0.6994".into()));
    assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
}

fn plan_error(rest: &str) -> String {
    plan(&experiment("\"coin\"", 10, 1, rest))
        .unwrap_err()
        .to_string()
}

#[test]
fn plan_errors_name_the_value_and_where_it_is() {
    assert_eq!(
        plan_error("[sweep]\nspeed = [1]\n"),
        "race.toml:7:1: unknown axis 'speed' for game 'race' (valid: start)"
    );
    assert_eq!(
        plan_error("[sweep]\nstart = [1, 12]\n"),
        "race.toml:7:13: axis 'start': 12 is not in 0..=9"
    );
    assert_eq!(
        plan_error("[setup]\nstart = true\n"),
        "race.toml:7:9: axis 'start': true is a boolean, expected an integer in 0..=9"
    );
    assert_eq!(
        plan(&experiment("\"coin\", \"walker\"", 10, 1, ""))
            .unwrap_err()
            .to_string(),
        "race.toml:3:23: unknown strategy 'walker' (valid: coin, coin2, pace, walk)"
    );
    let other = experiment("\"coin\"", 10, 1, "").replace("\"race\"", "\"rift\"");
    assert_eq!(
        plan(&other).unwrap_err().to_string(),
        "race.toml:2:8: experiment is for game 'rift', not 'race'"
    );
    let err = plan(&experiment("\"coin\"", 10, 1, "[sweep]\nstart = []\n")).unwrap_err();
    assert_eq!(err.at.line_column, Some((7, 9)));
}

#[test]
fn a_strategy_name_that_is_not_a_plain_name_is_refused_where_it_is_written() {
    // A strategy is named by its file stem in strategies/, never by a path: the check is the
    // experiment's own (so `list experiments` shows it too), at the name's line and column,
    // before any strategy is looked up.
    for name in [
        "../strategies/greedy",
        "strategies/greedy",
        "/tmp/greedy",
        "..",
        "",
        "my greedy",
    ] {
        let text = experiment(&format!("\"coin\", \"{name}\""), 10, 1, "");
        let parsed = Experiment::parse(&text, "race.toml").unwrap_err();
        assert_eq!(
            parsed.to_string(),
            format!(
                "race.toml:3:23: strategy '{name}' must be a plain name, a file stem in \
                 strategies/ (letters, digits, '-', '_', '.')"
            )
        );
        assert_eq!(plan(&text).unwrap_err(), parsed);
    }
    // The shipped names, dots and underscores are plain.
    for name in [
        "mcts-1000-gods-flat-tuned",
        "beam-200",
        "my_greedy.v2",
        "..x",
    ] {
        let text = experiment(&format!("\"{name}\""), 10, 1, "");
        assert!(Experiment::parse(&text, "race.toml").is_ok(), "{name}");
    }
}

#[test]
fn a_failed_write_keeps_the_previous_report() {
    let base = temp_dir("failed-write");
    let dir = base.join("report");
    let first = run(&experiment("\"walk\"", 10, 1, SWEEP), 1, false);
    lab::write_report(&first, &dir).unwrap();
    let before = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    assert_eq!(before, first.summary_csv());
    let toml = std::fs::read_to_string(dir.join("run.toml")).unwrap();
    assert!(
        toml.contains(&format!("commit = \"{}\"", lab::BUILD_COMMIT))
            && toml.contains("threads = 1"),
        "{toml}"
    );
    assert!(
        toml.contains("[experiment]\nname = \"race-test\""),
        "{toml}"
    );

    // A second run whose games.csv cannot be written (a folder sits where it goes in the
    // staging folder): the error names games.csv, the previous report is whole, no debris.
    let second = run(&experiment("\"coin\"", 10, 2, SWEEP), 1, true);
    let mut open = lab::ReportDir::open(&dir, &lab::report_files(true)).unwrap();
    open.write("summary.csv", &second.summary_csv()).unwrap();
    let staging: Vec<PathBuf> = std::fs::read_dir(dir.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains(".sololab-"))
        .collect();
    assert_eq!(staging.len(), 1, "{staging:?}");
    std::fs::create_dir(staging[0].join("games.csv")).unwrap();
    let err = lab::commit_report(&second, open).unwrap_err();
    assert!(err.to_string().contains("games.csv"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("summary.csv")).unwrap(),
        before
    );
    assert!(!staging[0].exists(), "the staging folder is removed");
    assert!(!dir.join("games.csv").exists());

    lab::write_report(&second, &dir).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("summary.csv")).unwrap(),
        second.summary_csv()
    );
    assert!(dir.join("games.csv").exists());
    // A run without --raw replaces the whole report: no games.csv of the run before.
    lab::write_report(&first, &dir).unwrap();
    assert!(!dir.join("games.csv").exists());
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn setup_from_pairs_checks_each_value() {
    assert_eq!(
        lab::setup_from_pairs::<Race>(&["start=3".into()]).unwrap(),
        3
    );
    assert_eq!(lab::setup_from_pairs::<Race>(&[]).unwrap(), 0);
    let err = lab::setup_from_pairs::<Race>(&["start=x".into()]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--set start=x: axis 'start': \"x\" is not an integer in 0..=9"
    );
    let err = lab::setup_from_pairs::<Race>(&["pace=1".into()]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--set pace=1: unknown axis 'pace' for game 'race' (valid: start)"
    );
}

#[test]
fn a_whole_number_too_large_for_64_bits_is_out_of_its_settings_range() {
    // An integer axis: its declared range, not "not an integer".
    for big in ["99999999999999999999", "-99999999999999999999"] {
        let err = lab::setup_from_pairs::<Race>(&[format!("start={big}")]).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("--set start={big}: axis 'start': {big} is out of range 0..=9")
        );
    }
    // A whole-number content value: the range `sololab list values rift` shows, not "a real
    // number, expected an integer".
    let err = lab::setup_from_pairs::<sololab::games::rift::Rift>(&[
        "mech.Wukong.hp=99999999999999999999".into(),
    ])
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "--set mech.Wukong.hp=99999999999999999999: axis 'mech.Wukong.hp': \
         99999999999999999999 is out of range 1..=5"
    );
    // A real content value reads it as a real, which the game refuses by its own rule.
    let err = lab::setup_from_pairs::<sololab::games::gods::Gods>(&[
        "scoundrel.move=99999999999999999999".into(),
    ])
    .unwrap_err();
    assert!(err.to_string().contains("up to 600"), "{err}");
    // Experiment files: at the value in [setup], [sweep] and the [compare] baseline.
    let head = "name = 'x'\ngame = 'rift'\nstrategies = ['random']\ngames = 1\nseed = 1\n";
    for (tail, expected) in [
        (
            "[setup]\nruins = 99999999999999999999\n",
            "x.toml:7:9: axis 'ruins': 99999999999999999999 is out of range 1..=3",
        ),
        (
            "[setup]\n'mech.Wukong.hp' = -99999999999999999999\n",
            "x.toml:7:20: axis 'mech.Wukong.hp': -99999999999999999999 is out of range 1..=5",
        ),
        (
            "[sweep]\nruins = [1, 0x8000000000000000]\n",
            "x.toml:7:13: axis 'ruins': 0x8000000000000000 is out of range 1..=3",
        ),
        (
            "[sweep]\nruins = [1, 2]\n[compare]\nbaseline = { ruins = 99999999999999999999 }\n",
            "x.toml:9:22: axis 'ruins': 99999999999999999999 is out of range 1..=3",
        ),
    ] {
        let err = Experiment::parse(&format!("{head}{tail}"), "x.toml").unwrap_err();
        assert_eq!(err.to_string(), expected);
    }
    // Elsewhere, the range of a TOML integer.
    let err = Experiment::parse(
        &head.replace("games = 1", "games = 99999999999999999999"),
        "x.toml",
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "x.toml:4:9: integer 99999999999999999999 is out of range (TOML integers are \
         -9223372036854775808..=9223372036854775807)"
    );
}

#[test]
fn play_traced_shows_turns_actions_events_and_outcome() {
    let mut lines = Vec::new();
    let start = Race::from_position("race 7 3").unwrap();
    let outcome = lab::play_traced(start, &mut Walker, (1, 0), &mut |l: &str| {
        lines.push(l.to_string())
    });
    assert!(outcome.is_win());
    assert_eq!(lines[0], "== state, turn 3 ==");
    assert_eq!(lines[1], "square 7/10 after 3 of 6 turns");
    assert_eq!(lines[2], "> walk");
    assert_eq!(lines[3], "  Walk: +1");
    assert_eq!(lines.last().unwrap(), "outcome: won after 6 turns");
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sololab-lab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn string_values_are_quoted_in_messages() {
    // A string where an integer is expected reads as a string, not as the integer it spells.
    assert_eq!(
        plan_error("[setup]\nstart = \"3\"\n"),
        "race.toml:7:9: axis 'start': \"3\" is a string, expected an integer in 0..=9"
    );
    let err = Experiment::parse(
        &experiment("\"coin\"", 10, 1, "[sweep]\nstart = [\"a\", \"a\"]\n"),
        "race.toml",
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "race.toml:7:15: axis 'start': value \"a\" is listed twice"
    );
}

/// An experiment of game `G` (`game` its name) with the shipped random player and `rest`,
/// read from `file` (relative file names resolve against its folder) and planned.
fn game_plan<G: Game>(game: &str, rest: &str, file: &Path) -> Result<Plan<G>, ExperimentError> {
    let text = format!(
        "name = \"t\"\ngame = \"{game}\"\nstrategies = [\"random\"]\ngames = 3\nseed = 1\n{rest}"
    );
    std::fs::write(file, text).unwrap();
    Plan::<G>::new(Experiment::load(file)?, |n| {
        lab::strategy_source::<G>(n, Path::new("strategies"))
    })
}

#[test]
fn one_setting_spelt_two_ways_is_refused_at_the_second() {
    // Two values the game resolves to one setup would make two identical cells under two
    // labels: refused at the second, whatever makes them one (a space after a comma, case, a
    // number written with a zero or a sign, a whole number for a real value).
    let dir = temp_dir("same-setting");
    let file = dir.join("t.toml");
    let refused = |game: &str, rest: &str| -> String {
        let err = match game {
            "beyond" => game_plan::<Beyond>(game, rest, &file).map(|_| ()),
            "rift" => game_plan::<Rift>(game, rest, &file).map(|_| ()),
            _ => game_plan::<Gods>(game, rest, &file).map(|_| ()),
        };
        let err = err.expect_err(rest).to_string();
        let at = format!("{}:", file.display());
        err.strip_prefix(&at).unwrap_or(&err).to_string()
    };
    for (game, rest, at, second, first) in [
        (
            "beyond",
            "heroes = [\"Bastian,Elisa\", \"Bastian, Elisa\"]",
            "7:28",
            "\"Bastian, Elisa\"",
            "\"Bastian,Elisa\"",
        ),
        (
            "beyond",
            "heroes = [\"1\", \"01\"]",
            "7:16",
            "\"01\"",
            "\"1\"",
        ),
        (
            "beyond",
            "heroes = [\"2\", \"+2\"]",
            "7:16",
            "\"+2\"",
            "\"2\"",
        ),
        (
            "beyond",
            "heroes = [\"Bastian\", \"bastian\"]",
            "7:22",
            "\"bastian\"",
            "\"Bastian\"",
        ),
        (
            "rift",
            "maps = [\"Stormbreak Ridge,Sunken Causeway\", \"Stormbreak Ridge, Sunken Causeway\"]",
            "7:45",
            "\"Stormbreak Ridge, Sunken Causeway\"",
            "\"Stormbreak Ridge,Sunken Causeway\"",
        ),
        (
            "rift",
            "upgrades = [\"0,0,0,0\", \"0, 0, 0, 0\"]",
            "7:24",
            "\"0, 0, 0, 0\"",
            "\"0,0,0,0\"",
        ),
        (
            "gods",
            "\"scoundrel.max_range\" = [24, 24.0]",
            "7:30",
            "24.0",
            "24",
        ),
    ] {
        let axis = rest.split(" = ").next().unwrap().trim_matches('"');
        assert_eq!(
            refused(game, &format!("[sweep]\n{rest}\n")),
            format!(
                "{at}: axis '{axis}': value {second} is the same setting as {first} listed \
                 before (the game resolves both to one setup)"
            ),
            "{rest}"
        );
    }
    // Other settings stay two cells.
    for (rest, cells) in [
        ("heroes = [\"Bastian,Elisa\", \"Elisa,Bastian\", \"2\"]", 3),
        ("heroes = [\"1\", \"2\"]", 2),
    ] {
        let plan = game_plan::<Beyond>("beyond", &format!("[sweep]\n{rest}\n"), &file);
        assert_eq!(plan.unwrap().cells.len(), cells, "{rest}");
    }
    let plan = game_plan::<Rift>(
        "rift",
        "[sweep]\nupgrades = [\"0,0,0,0\", \"0,0,0,1\"]\n",
        &file,
    );
    assert_eq!(plan.unwrap().cells.len(), 2);
    let plan = game_plan::<Gods>(
        "gods",
        "[sweep]\n\"scoundrel.max_range\" = [24, 24.5]\n",
        &file,
    );
    assert_eq!(plan.unwrap().cells.len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_spellings_of_one_content_value_are_one_key_given_twice() {
    // `monster[1]` is the Demon: with both spellings one value silently overrode the other (the
    // cell labelled hp = 9 played at hp 1). Refused at the later key, wherever it is.
    let dir = temp_dir("alias");
    let file = dir.join("t.toml");
    let err = game_plan::<Rift>(
        "rift",
        "[setup]\n\"monster[1].normal.hp\" = 1\n[sweep]\n\"monster.Demon.normal.hp\" = [1, 9]\n",
        &file,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}:9:1: axis 'monster.Demon.normal.hp' is given twice: 'monster[1].normal.hp' \
             ([setup], line 7) names the same content value",
            file.display()
        )
    );
    let err = game_plan::<Rift>(
        "rift",
        "[sweep]\n\"monster.Demon.normal.hp\" = [1, 9]\n[setup]\n\"monster[01].normal.hp\" = 1\n",
        &file,
    )
    .unwrap_err();
    assert!(
        err.to_string().ends_with(
            ":9:1: axis 'monster[01].normal.hp' is given twice: 'monster.Demon.normal.hp' \
             ([sweep], line 7) names the same content value"
        ),
        "{err}"
    );
    // Alone, either spelling sets the Demon's hp: the same setup.
    let one = game_plan::<Rift>("rift", "[setup]\n\"monster[1].normal.hp\" = 9\n", &file).unwrap();
    let other =
        game_plan::<Rift>("rift", "[setup]\n\"monster.Demon.normal.hp\" = 9\n", &file).unwrap();
    assert!(one.cells[0].setup == other.cells[0].setup);
    assert_eq!(one.cells[0].setup.content.monsters[0].name, "Demon");
    assert_eq!(one.cells[0].setup.content.monsters[0].normal.hp, 9);

    // `--set` too, in either order, as the same spelling twice is.
    let pairs = |a: &str, b: &str| {
        lab::setup_from_pairs::<Rift>(&[a.into(), b.into()])
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        pairs("monster.Demon.normal.hp=9", "monster[1].normal.hp=1"),
        "--set monster[1].normal.hp=1: axis 'monster[1].normal.hp' is given twice (first as \
         --set monster.Demon.normal.hp=9, the same content value)"
    );
    assert_eq!(
        pairs("monster[+1].normal.hp=1", "monster.Demon.normal.hp=9"),
        "--set monster.Demon.normal.hp=9: axis 'monster.Demon.normal.hp' is given twice (first \
         as --set monster[+1].normal.hp=1, the same content value)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_key_given_twice_with_set_is_refused() {
    let err = lab::setup_from_pairs::<Race>(&["start=1".into(), "start=2".into()]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--set start=2: axis 'start' is given twice (first as --set start=1)"
    );
}

#[test]
fn games_per_cell_and_total_games_are_bounded_without_overflow() {
    // In the file: any i64 is refused above 10^12 per cell.
    let err = plan(&experiment("\"coin\"", i64::MAX as u64, 1, "")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "race.toml:4:9: games = 9223372036854775807: at most 1000000000000 games per cell"
    );
    // 3 cells x 10^12 = 3 * 10^12 games is allowed; 12 cells x 10^12 is not.
    let text = experiment("\"coin\"", 10, 1, SWEEP);
    let mut e = Experiment::parse(&text, "race.toml").unwrap();
    e.set_games(lab::MAX_GAMES_PER_CELL).unwrap();
    assert_eq!(e.check_size().unwrap(), 3_000_000_000_000);
    let err = e.set_games(3_074_457_345_618_258_603).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--games 3074457345618258603: at most 1000000000000 games per cell"
    );
    assert_eq!(
        e.games,
        lab::MAX_GAMES_PER_CELL,
        "a refused value changes nothing"
    );
    let wide = experiment(
        "\"coin\", \"walk\", \"pace\", \"coin2\"",
        1,
        1,
        "[sweep]\nstart = [0, 1, 2]\n",
    );
    let mut e = Experiment::parse(&wide, "race.toml").unwrap();
    assert_eq!(
        e.set_games(lab::MAX_GAMES_PER_CELL)
            .unwrap_err()
            .to_string(),
        "--games 1000000000000: 12 cells × 1000000000000 games per cell is more than the \
         10000000000000 games a run may play"
    );
    // A plan re-checks the public field: 6 cells x 3074457345618258603 wraps around u64 to 2.
    let mut e = Experiment::parse(&experiment("\"coin\", \"walk\"", 1, 1, SWEEP), "x").unwrap();
    e.games = 3_074_457_345_618_258_603;
    let err = Plan::<Race>::new(e, strategy).unwrap_err();
    assert!(
        err.to_string()
            .contains("at most 1000000000000 games per cell"),
        "{err}"
    );
}

#[test]
fn seeds_are_those_an_experiment_file_holds() {
    let mut e = Experiment::parse(&experiment("\"coin\"", 10, 1, ""), "race.toml").unwrap();
    assert_eq!(
        e.set_seed(u64::MAX).unwrap_err().to_string(),
        "--seed 18446744073709551615: must be in 0..=9223372036854775807"
    );
    e.set_seed(lab::MAX_SEED).unwrap();
    assert_eq!(lab::MAX_SEED, i64::MAX as u64);
    // What is recorded loads back with the same seed.
    let again = Experiment::parse(&e.to_toml(), "again.toml").unwrap();
    assert_eq!(again.seed, i64::MAX as u64);
    e.seed = u64::MAX;
    assert!(Plan::<Race>::new(e, strategy).is_err());
}

#[test]
fn file_values_resolve_against_the_experiment_folder() {
    let dir = temp_dir("resolve");
    let file = dir.join("exp.toml");
    std::fs::write(
        &file,
        experiment(
            "\"coin\"",
            10,
            1,
            "[setup]\ncards = \"cards.toml\"\n[sweep]\n\
             deck = [\"sub/a.TOML\", \"/abs/b.toml\", \"random\"]\n",
        ),
    )
    .unwrap();
    let e = Experiment::load(&file).unwrap();
    let name = |p: PathBuf| sololab::AxisValue::Name(p.to_string_lossy().into_owned());
    assert_eq!(e.setup[0].1, name(dir.join("cards.toml")));
    assert_eq!(
        e.sweep[0].1,
        [
            name(dir.join("sub/a.TOML")),
            name(PathBuf::from("/abs/b.toml")),
            sololab::AxisValue::Name("random".into()),
        ]
    );
    // ... and are recorded as the file writes them, whatever folder the run started from.
    let recorded = e.to_toml();
    assert!(recorded.contains("cards = \"cards.toml\"\n"), "{recorded}");
    assert!(
        recorded.contains("deck = [\"sub/a.TOML\", \"/abs/b.toml\", \"random\"]\n"),
        "{recorded}"
    );
    assert_eq!(
        e.written_name(&dir.join("sub/a.TOML").to_string_lossy()),
        "sub/a.TOML"
    );
    assert_eq!(e.written_name("/abs/b.toml"), "/abs/b.toml");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_file_named_twice_in_a_sweep_is_refused_once_resolved() {
    // "cards.toml", "./cards.toml" and the folder's absolute path to it are three names before
    // resolution and one file after: identical cells under two labels.
    let dir = temp_dir("same-file");
    let file = dir.join("exp.toml");
    std::fs::write(
        dir.join("cards.toml"),
        sololab::games::rift::content::BUILTIN_TOML,
    )
    .unwrap();
    let absolute = dir.join("cards.toml").to_string_lossy().into_owned();
    for (second, column) in [("\"./cards.toml\"", 26), (&format!("{absolute:?}"), 26)] {
        let err = game_plan::<Rift>(
            "rift",
            &format!("[sweep]\ncontent = [\"cards.toml\", {second}]\n"),
            &file,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            format!(
                "{}:7:{column}: axis 'content': value {second} is the same setting as \
                 \"cards.toml\" listed before (the game resolves both to one setup)",
                file.display()
            )
        );
    }
    // Two files are two contents, even with the same text.
    std::fs::write(
        dir.join("copy.toml"),
        sololab::games::rift::content::BUILTIN_TOML,
    )
    .unwrap();
    let plan = game_plan::<Rift>(
        "rift",
        "[sweep]\ncontent = [\"cards.toml\", \"copy.toml\"]\n",
        &file,
    )
    .unwrap();
    assert_eq!(plan.cells.len(), 2);
    // The baseline's strategy name (even one ending in .toml) is not taken for a file.
    std::fs::write(
        &file,
        experiment(
            "\"pace\", \"coin.toml\"",
            10,
            1,
            "[sweep]\ndeck = [\"cards.toml\"]\n[compare]\nbaseline = { strategy = \"coin.toml\" }\n",
        ),
    )
    .unwrap();
    let e = Experiment::load(&file).unwrap();
    let baseline = e.baseline.as_ref().unwrap();
    assert_eq!(baseline[0].1, sololab::AxisValue::Name("coin.toml".into()));
    assert_eq!(e.baseline_cell(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_is_not_an_experiment() {
    let dir = temp_dir("dir-experiment");
    let err = lab::find_experiment(dir.to_str().unwrap(), Path::new("experiments")).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{}: is a directory, not an experiment file", dir.display())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_toml_records_each_strategy_with_its_origin_and_definition() {
    let dir = temp_dir("strategies");
    std::fs::write(
        dir.join("greedy.toml"),
        "kind = \"greedy\"\nsamples = 2\n[weights.race]\nposition = 0.5\n",
    )
    .unwrap();
    // The optional search keys are recorded when they are set (issue 9).
    std::fs::write(
        dir.join("closed.toml"),
        "kind = \"mcts\"\niterations = 20\nexploration = 0.5\nrollout = \"random\"\n\
         rollout_depth = 4\nprior_visits = 3\nchance_outcomes = 6\ntree_depth = 2\n\
         rollout_turns = 1\n[weights.race]\nposition = 1.0\n",
    )
    .unwrap();
    // A beam rollout records its width (always, as the width is what the rollout costs).
    std::fs::write(
        dir.join("beamroll.toml"),
        "kind = \"mcts\"\niterations = 8\nexploration = 0.5\nrollout = \"beam\"\n\
         rollout_depth = 3\nrollout_samples = 2\n[weights.race]\nposition = 1.0\n",
    )
    .unwrap();
    let text = experiment(
        "\"greedy\", \"mcts-200\", \"coin\", \"closed\", \"beamroll\"",
        4,
        1,
        "",
    );
    let e = Experiment::parse(&text, "race.toml").unwrap();
    let plan = Plan::<Race>::new(e, |name| match name {
        "coin" => strategy(name).map(lab::StrategySource::from),
        _ => lab::strategy_source::<Race>(name, &dir),
    })
    .unwrap();
    let toml = lab::run_experiment(&plan, &RunOptions::default()).run_toml();
    let greedy = format!(
        "[strategies.greedy]\norigin = \"{}\"\nkind = \"greedy\"\nsamples = 2\n\n\
         [strategies.greedy.weights.race]\nposition = 0.5\n",
        dir.join("greedy.toml").display()
    );
    assert!(toml.contains(&greedy), "{toml}");
    assert!(
        toml.contains(
            "[strategies.mcts-200]\norigin = \"built in\"\nkind = \"mcts\"\niterations = 200\n\
             exploration = 1.0\nrollout = \"greedy\"\nrollout_depth = 6\nrollout_samples = 1\nwidening = 0.0\n\
             stop_at_chance = false\nsee_hidden = false\nclairvoyant = false\n\n"
        ),
        "{toml}"
    );
    assert!(
        toml.contains(
            "clairvoyant = false\nprior_visits = 3\nchance_outcomes = 6\ntree_depth = 2\n\
             rollout_turns = 1\n\n\
             [strategies.closed.weights.race]\n"
        ),
        "{toml}"
    );
    assert!(
        toml.contains(
            "rollout = \"beam\"\nrollout_depth = 3\nrollout_samples = 2\nwidening = 0.0\n\
             stop_at_chance = false\nsee_hidden = false\nclairvoyant = false\nrollout_width = 200\n\n\
             [strategies.beamroll.weights.race]\n"
        ),
        "{toml}"
    );
    // Its weights, one table per game the file has weights for.
    assert!(
        toml.contains("[strategies.mcts-200.weights.race]\nposition = 1.0\nturns_left = 0.0\n"),
        "{toml}"
    );
    assert!(
        toml.contains("[strategies.coin]\norigin = \"given in code\"\n"),
        "{toml}"
    );
    // The whole file is TOML.
    let parsed: toml::Table = toml::from_str(&toml).unwrap();
    assert_eq!(
        parsed["strategies"]["greedy"]["samples"].as_integer(),
        Some(2)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_report_error_names_the_os_error_once() {
    let dir = temp_dir("os-error");
    let file = dir.join("file");
    std::fs::write(&file, "").unwrap();
    let report = run(&experiment("\"walk\"", 2, 1, ""), 1, false);
    let err = lab::write_report(&report, &file.join("out")).unwrap_err();
    let text = format!("{:#}", anyhow::Error::new(err));
    assert_eq!(text.matches("(os error").count(), 1, "{text}");
    assert!(text.starts_with(&format!("{}: cannot create", file.join("out").display())));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Records the chunks a run saves.
struct Recorder(Vec<(u64, u64, usize)>);
impl lab::ChunkStore for Recorder {
    fn finished(&mut self, _from: u64, _to: u64) -> Option<lab::Chunk> {
        None
    }
    fn save(&mut self, chunk: &lab::Chunk) -> std::io::Result<()> {
        self.0.push((chunk.from, chunk.to, chunk.cells.len()));
        Ok(())
    }
}

#[test]
fn dearer_strategies_save_smaller_chunks_with_the_same_numbers() {
    let dir = temp_dir("chunk-cost");
    std::fs::write(
        dir.join("greedy.toml"),
        "kind = \"greedy\"\nsamples = 1\n[weights.race]\nposition = 0.5\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("dear.toml"),
        "kind = \"mcts\"\niterations = 300\nexploration = 1.0\nrollout = \"greedy\"\n\
         rollout_depth = 40\nrollout_samples = 4\n[weights.race]\nposition = 1.0\n",
    )
    .unwrap();
    let plan_of = |strategies: &str, games: u64| {
        let e = Experiment::parse(&experiment(strategies, games, 5, SWEEP), "race.toml").unwrap();
        Plan::<Race>::new(e, |name| match name {
            "coin" => strategy(name).map(lab::StrategySource::from),
            _ => lab::strategy_source::<Race>(name, &dir),
        })
        .unwrap()
    };
    // 3 cells each. A strategy given in code counts as random play (cost 1); greedy with 1
    // sample scores 32 candidates a decision; the MCTS 300 x 40 rollout decisions of 4 x 32.
    assert_eq!(lab::CHUNK_GAMES, 4096);
    assert_eq!(plan_of("\"coin\"", 10).chunk_positions(), 4096 / 3);
    assert_eq!(plan_of("\"greedy\"", 10).chunk_positions(), 4096 / (3 * 32));
    // The dearest strategy sets the size: at least CHUNK_MIN_GAMES games over the 3 cells.
    assert_eq!(lab::CHUNK_MIN_GAMES, 64);
    assert_eq!(
        plan_of("\"coin\", \"dear\"", 10).chunk_positions(),
        64u64.div_ceil(6)
    );
    assert_eq!(plan_of("\"dear\"", 10).chunk_positions(), 22);

    // The chunks saved are of that size, and the numbers are those of one piece.
    let plan = plan_of("\"greedy\"", 100);
    let mut store = Recorder(Vec::new());
    let options = RunOptions {
        threads: 2,
        raw: false,
    };
    let report = lab::try_run_shard(
        &plan,
        &options,
        lab::Shard::WHOLE,
        &lab::NoProgress,
        &mut store,
    )
    .unwrap();
    assert_eq!(store.0, vec![(0, 42, 3), (42, 84, 3), (84, 100, 3)]);
    let whole = lab::run_experiment(&plan, &options);
    assert_eq!(report.summary_csv(), whole.summary_csv());
    std::fs::remove_dir_all(&dir).unwrap();
}
