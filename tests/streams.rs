//! The seed streams checked where they are chosen (DESIGN.md, "Seeds and reproducibility"): a
//! spy policy, run through the runner (`play_game`, `run_experiment`) and through `play`
//! (`play_traced`), checks that every decision of game `i` is handed
//! `stream_rng(seed, i, Stream::Policy)` (advanced only by the spy's own draws), and a replay of
//! the spy's actions with `stream_rng(seed, i, Stream::Chance)` as the dice must give the same
//! game. Swapping the streams, passing the chance generator to the policy, or seeding a game
//! from another index fails here.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use sololab::games::rift::{Rift, RiftAction, RiftSetup};
use sololab::lab::{Experiment, Plan, PolicyFactory, RunOptions, play_game, play_traced};
use sololab::{Game, GameRng, Outcome, Policy, Stream, below, stream_rng};

/// Actions chosen per game index.
type Log = Arc<Mutex<BTreeMap<u64, Vec<RiftAction>>>>;

/// A uniform random policy that checks the generator it is handed. It knows the experiment
/// seed and how many games there are; it recognises a new game by its fresh policy stream and
/// then expects, at each next decision, the same stream advanced by its own draws.
struct Spy {
    seed: u64,
    games: u64,
    /// The game being played and the generator it should hand over next.
    current: Option<(u64, GameRng)>,
    log: Log,
}

impl Spy {
    fn new(seed: u64, games: u64, log: &Log) -> Spy {
        Spy {
            seed,
            games,
            current: None,
            log: Arc::clone(log),
        }
    }
}

impl Policy<Rift> for Spy {
    fn choose(&mut self, _state: &Rift, legal: &[RiftAction], rng: &mut GameRng) -> RiftAction {
        let continuing = matches!(&self.current, Some((_, expected)) if expected == rng);
        if !continuing {
            let (seed, games) = (self.seed, self.games);
            let i = (0..games)
                .find(|&i| stream_rng(seed, i, Stream::Policy) == *rng)
                .unwrap_or_else(|| {
                    let what = (0..games)
                        .find_map(|i| {
                            [Stream::Setup, Stream::Chance]
                                .into_iter()
                                .find(|&s| stream_rng(seed, i, s) == *rng)
                                .map(|s| format!("the {s:?} stream of game {i}"))
                        })
                        .unwrap_or_else(|| "no stream of this experiment".into());
                    panic!(
                        "the policy was handed {what}, not a game's fresh policy stream \
                         (nor the one it was handed last, advanced by its own draws)"
                    )
                });
            let fresh = self.log.lock().unwrap().insert(i, Vec::new()).is_none();
            assert!(fresh, "game {i}'s policy stream was handed out twice");
            self.current = Some((i, rng.clone()));
        }
        let (i, expected) = self.current.as_mut().unwrap();
        let n = legal.len() as u32;
        let k = below(rng, n);
        assert_eq!(k, below(expected, n));
        let a = legal[k as usize];
        self.log.lock().unwrap().get_mut(i).unwrap().push(a);
        a
    }
}

/// Game `i` of `seed` replayed with the spy's actions, the dice drawn from the chance stream.
fn replay(setup: &RiftSetup, seed: u64, i: u64, actions: &[RiftAction]) -> Rift {
    let mut g = Rift::new_game(setup, &mut stream_rng(seed, i, Stream::Setup));
    let mut chance = stream_rng(seed, i, Stream::Chance);
    let mut legal = Vec::new();
    for (n, &a) in actions.iter().enumerate() {
        g.legal_actions(&mut legal);
        assert!(
            legal.contains(&a),
            "game {i}, decision {n}: {a:?} is not legal in the replay: the game's dice were \
             not its chance stream"
        );
        g.apply(a, &mut chance);
    }
    assert!(g.outcome().is_some(), "game {i}: the replay is not over");
    g
}

#[test]
fn play_game_hands_the_policy_its_stream_and_rolls_the_chance_stream() {
    let setup = RiftSetup::default_setup();
    let (seed, games) = (77, 30);
    let log = Log::default();
    let mut legal = Vec::new();
    for i in 0..games {
        let mut spy = Spy::new(seed, games, &log);
        let end: Rift = play_game(&setup, &mut spy, seed, i, &mut legal);
        let actions = log.lock().unwrap()[&i].clone();
        assert!(!actions.is_empty(), "game {i}: the spy made no decision");
        assert_eq!(
            replay(&setup, seed, i, &actions),
            end,
            "game {i}: not the game the chance stream rolls"
        );
    }
    assert_eq!(log.lock().unwrap().len(), games as usize);
}

#[test]
fn run_experiment_hands_every_game_its_streams_on_two_threads() {
    let (seed, games) = (5, 40);
    let text = format!(
        "name = \"streams\"\ngame = \"rift\"\nstrategies = [\"spy\"]\ngames = {games}\n\
         seed = {seed}\n"
    );
    let experiment = Experiment::parse(&text, "streams.toml").unwrap();
    let log = Log::default();
    let factory_log = Arc::clone(&log);
    let factory: PolicyFactory<Rift> =
        Arc::new(move || Box::new(Spy::new(seed, games, &factory_log)));
    let plan = Plan::<Rift>::new(experiment, |_| {
        Ok::<_, sololab::lab::ErrorKind>(Arc::clone(&factory))
    })
    .unwrap();
    let setup = plan.cells[0].setup.clone();
    let report = sololab::lab::run_experiment(
        &plan,
        &RunOptions {
            threads: 2,
            raw: true,
        },
    );
    let log = log.lock().unwrap();
    assert_eq!(
        log.keys().copied().collect::<Vec<_>>(),
        (0..games).collect::<Vec<_>>(),
        "every game index played once"
    );
    // Each game's row in the report is the replayed game's.
    let rows = report.rows.as_ref().expect("raw rows");
    assert_eq!(rows.len(), games as usize);
    let mut wins = 0;
    let mut metrics = vec![0i64; Rift::METRIC_NAMES.len()];
    for row in rows {
        let g = replay(&setup, seed, row.index, &log[&row.index]);
        assert_eq!(g.outcome(), Some(row.outcome), "game {}", row.index);
        assert_eq!(g.turns(), row.turns, "game {}", row.index);
        g.metrics(&mut metrics);
        assert_eq!(metrics, row.metrics, "game {}", row.index);
        wins += u64::from(row.outcome == Outcome::Won);
    }
    assert_eq!(report.cells[0].totals.wins, wins);
}

#[test]
fn play_hands_the_policy_its_games_stream_and_rolls_its_chance_stream() {
    // Game 0 (`sololab play --seed S`) and game 3 (`--index 3`) of seed 12.
    let setup = RiftSetup::default_setup();
    let seed = 12;
    for index in [0, 3] {
        let log = Log::default();
        let mut spy = Spy::new(seed, 4, &log);
        let start = Rift::new_game(&setup, &mut stream_rng(seed, index, Stream::Setup));
        let mut lines = Vec::new();
        let outcome = play_traced(start, &mut spy, (seed, index), &mut |l: &str| {
            lines.push(l.to_string())
        });
        let log = log.lock().unwrap();
        assert_eq!(log.keys().copied().collect::<Vec<_>>(), [index]);
        let g = replay(&setup, seed, index, &log[&index]);
        assert_eq!(g.outcome(), Some(outcome), "game {index}");
        // `play` ends with the final state and the outcome line: the replayed game's state.
        let state: Vec<String> = g.to_string().lines().map(str::to_string).collect();
        let n = lines.len();
        assert!(n > state.len() + 1, "{lines:?}");
        assert_eq!(lines[n - 1 - state.len()..n - 1], state[..], "game {index}");
    }
}
