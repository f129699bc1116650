//! Paired comparisons (`[compare]`, `pairs.csv`) and precision targets (issue 15), through the
//! lab's API: the paired counts against per-game rows counted by hand, `pairs.csv` against
//! hand-computed values, pairing narrower than unpaired on a Rift comparison, and precision
//! runs byte-identical on 1 and 2 threads.

use std::path::Path;
use std::sync::Arc;

use sololab::games::beyond::Beyond;
use sololab::games::gods::Gods;
use sololab::games::race::{Race, RaceAction};
use sololab::games::rift::Rift;
use sololab::lab::{
    self, ErrorKind, Experiment, PairedCounts, Plan, PolicyFactory, Report, RunOptions,
};
use sololab::{AxisValue, Game, GameRng, Outcome, Policy, below};

/// Uniform over the legal actions, from the policy stream.
struct Coin;
impl Policy<Race> for Coin {
    fn choose(&mut self, _s: &Race, legal: &[RaceAction], rng: &mut GameRng) -> RaceAction {
        legal[below(rng, legal.len() as u32) as usize]
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
        "coin" => Ok(Arc::new(|| Box::new(Coin))),
        "pace" => Ok(Arc::new(|| Box::new(Pacer))),
        _ => Err(ErrorKind::UnknownStrategy {
            name: name.to_string(),
            valid: vec!["coin".into(), "pace".into()],
        }),
    }
}

fn race_plan(text: &str) -> Plan<Race> {
    Plan::<Race>::new(Experiment::parse(text, "race.toml").unwrap(), strategy).unwrap()
}

fn run(plan: &Plan<Race>, threads: usize, raw: bool) -> Report {
    lab::run_experiment(plan, &RunOptions { threads, raw })
}

const COMPARE: &str = "name = \"pairs\"\ngame = \"race\"\nstrategies = [\"coin\", \"pace\"]\n\
                       games = 5000\nseed = 11\n[sweep]\nstart = [0, 2]\n\
                       [compare]\nbaseline = { strategy = \"coin\", start = 2 }\n";

#[test]
fn paired_counts_are_the_per_game_pairs_counted_by_hand_for_any_threads() {
    let plan = race_plan(COMPARE);
    assert_eq!(plan.experiment.baseline_cell(), Some(1));
    let raw = run(&plan, 1, true);
    let rows = raw.rows.as_ref().unwrap();
    let won = |c: usize, i: u64| {
        let r = &rows[c * 5000 + i as usize];
        assert_eq!((r.cell, r.index), (c, i));
        r.outcome == Outcome::Won
    };
    for threads in [1, 2] {
        let report = run(&plan, threads, false);
        for c in 0..4 {
            let mut hand = PairedCounts::default();
            for i in 0..5000 {
                hand.record(won(1, i), won(c, i));
            }
            assert_eq!(report.cells[c].totals.paired, Some(hand), "cell {c}");
            assert_eq!(raw.cells[c].totals.paired, Some(hand), "cell {c}, raw");
        }
        assert_eq!(report.pairs_csv(), raw.pairs_csv());
        assert_eq!(report.summary_csv(), raw.summary_csv());
    }
    // The baseline paired with itself: only "both" and "neither".
    let b = raw.cells[1].totals.paired.unwrap();
    assert_eq!((b.only_baseline, b.only_cell), (0, 0));
    assert_eq!(b.both, raw.cells[1].totals.wins);
    // pairs.csv: one row per other cell, with the documented columns.
    let csv = raw.pairs_csv().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0],
        "experiment,game,strategy,start,baseline,pairs,both_won,only_baseline_won,\
         only_cell_won,neither_won,baseline_win_rate,win_rate,diff,ci_low,ci_high,\
         unpaired_ci_low,unpaired_ci_high,variance_reduction,games_saved"
    );
    assert!(lines[1].starts_with("pairs,race,coin,0,strategy=coin start=2,5000,"));
}

#[test]
fn pairs_csv_matches_hand_computed_values() {
    // The Cavo et al. table as a cell's pairs with the baseline: both 59, only the baseline
    // 16, only the cell 6, neither 80 (161 pairs). By hand (z = 1.959964): baseline 75/161 =
    // 0.4658, cell 65/161 = 0.4037, diff -0.0621; Newcombe paired -0.1186..-0.0046 (Fagerland
    // et al. 2014); unpaired (Newcombe's hybrid score) -0.1680..0.0458; variance reduction
    // 1 - (0.1140/0.2138)^2 = 0.7155; games saved 161 * (0.2138/0.1140)^2 - 161 = 405.
    let mut report = run(&race_plan(COMPARE), 1, false);
    report.cells[0].totals.paired = Some(PairedCounts {
        both: 59,
        only_baseline: 16,
        only_cell: 6,
        neither: 80,
    });
    let csv = report.pairs_csv().unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert_eq!(
        row,
        "pairs,race,coin,0,strategy=coin start=2,161,59,16,6,80,0.4658,0.4037,-0.0621,-0.1186,\
         -0.0046,-0.1680,0.0458,0.7155,405"
    );
}

#[test]
fn pairing_is_narrower_than_unpaired_on_the_rift_ruins_3_vs_2() {
    let text = "name = \"ruins\"\ngame = \"rift\"\nstrategies = [\"greedy\"]\ngames = 300\n\
                seed = 4\n[sweep]\nruins = [3, 2]\n[compare]\nbaseline = { ruins = 3 }\n";
    let plan = Plan::<Rift>::new(Experiment::parse(text, "ruins.toml").unwrap(), |name| {
        lab::strategy_source::<Rift>(name, Path::new("strategies"))
    })
    .unwrap();
    let report = lab::run_experiment(
        &plan,
        &RunOptions {
            threads: 2,
            raw: false,
        },
    );
    let p = report.cells[1].totals.paired.unwrap();
    assert_eq!(p.pairs(), 300);
    // Common random numbers: the same seeds make the two cells' outcomes agree more often
    // than independent games would, so the paired interval is narrower.
    let (paired, unpaired) = (p.difference(lab::Z95), p.unpaired(lab::Z95));
    assert!(p.both + p.neither > p.only_baseline + p.only_cell, "{p:?}");
    assert!(
        paired.hi - paired.lo < 0.9 * (unpaired.hi - unpaired.lo),
        "paired {paired:?} unpaired {unpaired:?} ({p:?})"
    );
    let csv = report.pairs_csv().unwrap();
    let saved: f64 = csv
        .lines()
        .nth(1)
        .unwrap()
        .rsplit(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(saved > 0.0, "{csv}");
}

const PRECISION: &str = "name = \"target\"\ngame = \"race\"\nstrategies = [\"coin\", \"pace\"]\n\
                         games = 100\nseed = 3\nprecision = 0.04\nmax_games = 1000\n\
                         [sweep]\nstart = [0, 4]\n";

#[test]
fn a_precision_run_stops_each_cell_at_a_batch_and_is_byte_identical_on_1_and_2_threads() {
    let plan = race_plan(PRECISION);
    let one = run(&plan, 1, false);
    let two = run(&plan, 2, false);
    assert_eq!(one.summary_csv(), two.summary_csv());
    assert_eq!(one.precision_toml(), two.precision_toml());
    let mut needed = Vec::new();
    for cell in &one.cells {
        let t = &cell.totals;
        let (lo, hi) = t.interval();
        let met = (hi - lo) / 2.0 <= 0.04;
        // A cell stops at a batch boundary: when it meets the target or at max_games.
        assert!(t.games % 100 == 0 && t.games <= 1000, "{}", t.games);
        assert!(met || t.games == 1000);
        if t.games > 100 {
            // It did not meet the target one batch earlier (the first batch is always played).
            assert!(!lab::meets_precision(
                &first_games(&plan, cell, t.games - 100),
                0.04
            ));
        }
        needed.push(t.games);
    }
    // The optimal pace from square 4 wins every game and meets the target after one batch
    // (Wilson half-width 0.0185 at 100 of 100); the coin from 0 needs more.
    assert_eq!(needed[3], 100, "{needed:?}");
    assert!(needed[0] > 100, "{needed:?}");
    let toml = one.precision_toml();
    let games: Vec<String> = needed.iter().map(|n| n.to_string()).collect();
    assert!(
        toml.contains(&format!("games_needed = [{}]\n", games.join(", "))),
        "{toml}"
    );
    assert!(
        one.run_toml()
            .contains("[precision]\ntarget = 0.04\nmax_games = 1000\n")
    );
    // The file's batch size decides: a target met only at max_games says so.
    let hard = race_plan(&PRECISION.replace("precision = 0.04", "precision = 0.005"));
    let r = run(&hard, 2, false);
    assert!(
        r.cells.iter().any(|c| c.totals.games == 1000),
        "{}",
        r.summary_csv()
    );
    assert!(
        r.precision_toml().contains("met = false\n"),
        "{}",
        r.precision_toml()
    );
}

/// The totals of the first `games` games of `cell`, from a plain run of that many games.
fn first_games(plan: &Plan<Race>, cell: &lab::CellReport, games: u64) -> lab::Totals {
    let mut e = plan.experiment.clone();
    e.precision = None;
    e.max_games = None;
    e.games = games;
    let p = Plan::<Race>::new(e, strategy).unwrap();
    let r = run(&p, 2, false);
    r.cells
        .into_iter()
        .find(|c| c.strategy == cell.strategy && c.values == cell.values)
        .unwrap()
        .totals
}

#[test]
fn compare_and_precision_errors_are_located() {
    // Which cell a baseline names needs the game (a value may be another spelling of one the
    // sweep lists): the plan says, at the same places.
    let err = |rest: &str| {
        let text = format!(
            "name = \"x\"\ngame = \"race\"\nstrategies = [\"coin\", \"pace\"]\ngames = 10\n\
             seed = 1\n[sweep]\nstart = [0, 2]\n{rest}"
        );
        match Experiment::parse(&text, "x.toml") {
            Err(e) => e.to_string(),
            Ok(e) => Plan::<Race>::new(e, strategy).unwrap_err().to_string(),
        }
    };
    assert_eq!(
        err("[compare]\nbaseline = { strategy = \"coin\" }\n"),
        "x.toml:9:12: [compare] baseline names more than one cell: give start"
    );
    assert_eq!(
        err("[compare]\nbaseline = { strategy = \"coin\", start = 5 }\n"),
        "x.toml:9:41: [compare] baseline: start = 5 is not one of the experiment's values (0, 2)"
    );
    assert!(
        err("[compare]\nbaseline = { speed = 1 }\n")
            .starts_with("x.toml:9:14: [compare] baseline: 'speed' is not the strategy or a sweep")
    );
    let top = |rest: &str| {
        let text = format!(
            "name = \"x\"\ngame = \"race\"\nstrategies = [\"coin\"]\ngames = 10\nseed = 1\n{rest}"
        );
        Experiment::parse(&text, "x.toml").unwrap_err().to_string()
    };
    assert_eq!(
        top("precision = 0.01\n"),
        "x.toml:6:13: precision needs max_games (the most games a cell may play)"
    );
    assert_eq!(
        top("max_games = 100\n"),
        "x.toml:6:13: max_games is only used with precision"
    );
    assert_eq!(
        top("precision = 0.9\nmax_games = 100\n"),
        "x.toml:6:13: precision = 0.9: the largest Wilson half-width must be in 0.0001..=0.5"
    );
    assert_eq!(
        top("precision = 0.01\nmax_games = 5\n"),
        "x.toml:7:13: max_games = 5 is below games = 10 (the batch size)"
    );
    // A valid experiment with both reads back from its own TOML.
    let text = "name = \"x\"\ngame = \"race\"\nstrategies = [\"coin\", \"pace\"]\ngames = 10\n\
                seed = 1\nprecision = 0.01\nmax_games = 100\n[sweep]\nstart = [0, 2]\n\
                [compare]\nbaseline = { start = 2, strategy = \"pace\" }\n";
    let e = Experiment::parse(text, "x.toml").unwrap();
    assert_eq!(e.baseline_cell(), Some(3));
    let again = Experiment::parse(&e.to_toml(), "again.toml").unwrap();
    assert_eq!(again.to_toml(), e.to_toml());
    assert_eq!((again.precision, again.max_games), (Some(0.01), Some(100)));
}

/// An experiment of game `G` (named `game`) with two strategies and `rest`, planned.
fn game_plan<G: Game>(game: &str, rest: &str) -> Result<Plan<G>, String> {
    let text = format!(
        "name = \"x\"\ngame = \"{game}\"\nstrategies = [\"random\", \"greedy\"]\ngames = 3\n\
         seed = 1\n{rest}"
    );
    let e = Experiment::parse(&text, "x.toml").map_err(|e| e.to_string())?;
    Plan::<G>::new(e, |n| lab::strategy_source::<G>(n, Path::new("strategies")))
        .map_err(|e| e.to_string())
}

#[test]
fn a_baseline_spelt_as_the_game_reads_it_names_its_cell() {
    // A baseline value or key the game reads as one of the sweep's names that cell (it was
    // refused as "not one of the experiment's values"), and is recorded as the sweep writes it.
    let gods = game_plan::<Gods>(
        "gods",
        "[sweep]\n\"scoundrel.max_range\" = [24, 20]\n\
         [compare]\nbaseline = { strategy = \"greedy\", \"scoundrel.max_range\" = 20.0 }\n",
    )
    .unwrap();
    assert_eq!(gods.experiment.baseline_cell(), Some(3));
    let recorded = gods.experiment.to_toml();
    assert!(
        recorded.contains("baseline = { strategy = \"greedy\", \"scoundrel.max_range\" = 20 }\n"),
        "{recorded}"
    );
    let beyond = game_plan::<Beyond>(
        "beyond",
        "[sweep]\nscenario = [\"Old Friends\", \"The Huntmaster's Trail\"]\n\
         [compare]\nbaseline = { strategy = \"random\", scenario = \"the_huntmaster's_trail\" }\n",
    )
    .unwrap();
    assert_eq!(beyond.experiment.baseline_cell(), Some(1));
    let rift = game_plan::<Rift>(
        "rift",
        "[sweep]\n\"monster.Demon.normal.hp\" = [2, 3]\n\
         [compare]\nbaseline = { strategy = \"random\", \"monster[1].normal.hp\" = 3 }\n",
    )
    .unwrap();
    assert_eq!(rift.experiment.baseline_cell(), Some(1));
    assert_eq!(
        rift.experiment.baseline.as_ref().unwrap()[1],
        ("monster.Demon.normal.hp".to_string(), AxisValue::Int(3))
    );
    // Another setting, or another value, is still no cell.
    assert_eq!(
        game_plan::<Gods>(
            "gods",
            "[sweep]\n\"scoundrel.max_range\" = [24, 20]\n\
             [compare]\nbaseline = { strategy = \"greedy\", \"scoundrel.max_range\" = 22.0 }\n",
        )
        .unwrap_err(),
        "x.toml:9:59: [compare] baseline: scoundrel.max_range = 22.0 is not one of the \
         experiment's values (24, 20)"
    );
    assert_eq!(
        game_plan::<Rift>(
            "rift",
            "[sweep]\n\"monster.Demon.normal.hp\" = [2, 3]\n\
             [compare]\nbaseline = { strategy = \"random\", \"monster[2].normal.hp\" = 3 }\n",
        )
        .unwrap_err(),
        "x.toml:9:35: [compare] baseline: 'monster[2].normal.hp' is not the strategy or a sweep \
         axis (valid: strategy, monster.Demon.normal.hp)"
    );
}

#[test]
fn games_at_precision_is_the_first_batch_end_that_meets_the_target_at_the_rate_so_far() {
    let meets = |wins: u64, games: u64, p: f64| {
        let mut t = sololab::lab::Totals::new(0, 0);
        t.games = games;
        t.wins = wins;
        lab::meets_precision(&t, p)
    };
    // A coin at ±2 points in batches of 200: the first multiple of 200 whose Wilson half-width
    // at 1/2 is at most 0.02, checked against its neighbour below.
    let n = lab::games_at_precision(100, 200, 0.02, 200, 2600);
    assert_eq!(n % 200, 0);
    assert!(
        meets(n / 2, n, 0.02) && !meets((n - 200) / 2, n - 200, 0.02),
        "{n}"
    );
    assert_eq!(n, 2400);
    // No games yet: the rate 1/2, the same answer.
    assert_eq!(lab::games_at_precision(0, 0, 0.02, 200, 2600), 2400);
    // A cell that meets the target already stops where it is; one at its cap too.
    assert_eq!(lab::games_at_precision(0, 200, 0.02, 200, 2600), 200);
    assert_eq!(lab::games_at_precision(1300, 2600, 0.001, 200, 2600), 2600);
    // A rate near 0 needs few games; one the cap cannot reach stops at the cap.
    let low = lab::games_at_precision(6, 200, 0.02, 200, 2600);
    assert!((400..=1000).contains(&low), "{low}");
    assert!(meets((0.03 * low as f64).round() as u64, low, 0.02));
    assert_eq!(lab::games_at_precision(100, 200, 0.005, 200, 2600), 2600);
    // The cap itself counts as a batch end when it is not a multiple of the batch.
    assert_eq!(lab::games_at_precision(50, 100, 0.02, 1000, 2500), 2500);
}
