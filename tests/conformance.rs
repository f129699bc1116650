//! The conformance suite the [`Game`] trait's docs promise: generic over the trait and run on
//! every game in the registry (`GameKind::ALL`, through `with_game!`) plus the Race fixture. A
//! new game joins it by its registry line alone; its own tests keep only its own rules.
//!
//! From many seeds, random playouts of the default setup and of each setup that moves one axis
//! to its bounds or to one of its listed names (OpenSpiel's `RandomSimTest`) check that:
//! - every game ends within `MAX_DECISIONS` player decisions;
//! - legal actions are non-empty exactly while `outcome()` is `None`, and distinct;
//! - no action offered is illegal: each one applies to a copy of the state without a panic;
//! - a copy compares equal to its original, and `from_position(to_position(s)) == s` (and
//!   writes the same text again) on states from the playouts, each read as `play --position`
//!   reads it (`position_text::playable`: every check of the game's reader and a decision left
//!   while the game goes on);
//! - a loss names a cause in `0..LOSS_CAUSES.len()`;
//! - `features` and `metrics` write every slot of their declared lengths (`feature_names`,
//!   `metric_names`) with finite numbers, and `features_needed` writes every needed feature as
//!   `features` does and the others as that or `0.0`;
//! - `determinize` leaves what the player sees (legal actions, outcome) as it was, and a game
//!   whose `determinize` re-samples anything sets `HIDDEN_INFORMATION`;
//! - the same seeds give the same game, and different seeds different games.
//!
//! Sizes are chosen to keep each game to a few seconds in release mode.

use sololab::games::race::Race;
use sololab::{
    AxisKind, AxisValue, Game, GameKind, GameRng, Outcome, SetupValues, Stream, below, stream_rng,
    with_game,
};

/// Seeds played on the default setup.
const DEFAULT_SEEDS: u64 = 2000;
/// Seeds played on each setup that moves one axis to a bound.
const AXIS_SEEDS: u64 = 100;
/// Of each setup's seeds, those whose every state also has every offered action applied to a
/// copy, and `determinize` checked.
const DEEP_SEEDS: u64 = 30;

/// What one playout ended in, for comparing two plays of the same seeds.
#[derive(Debug, PartialEq)]
struct Played<G: Game> {
    last: G,
    decisions: u32,
    outcome: Outcome,
    metrics: Vec<i64>,
}

/// The setups to play: the default, then, one axis at a time, each integer axis at its min and
/// its max, each boolean axis at true and at false, and each name axis at the first and the last
/// of its listed names (`axis_names`) other than its default. Values the game refuses with the
/// other axes at their defaults are skipped (a campaign game beyond the content's, a name axis
/// that wants several names).
fn setups<G: Game>() -> Vec<(String, G::Setup)> {
    let default = G::resolve_setup(&SetupValues::new())
        .unwrap_or_else(|e| panic!("{}: the default setup does not resolve: {e}", G::NAME));
    let mut out = vec![("default".to_string(), default)];
    for axis in G::axes() {
        let values = match axis.kind {
            AxisKind::Int { min, max } => vec![AxisValue::Int(min), AxisValue::Int(max)],
            AxisKind::Bool => vec![AxisValue::Bool(true), AxisValue::Bool(false)],
            AxisKind::Name => {
                let names: Vec<String> = G::axis_names(&out[0].1, axis.name)
                    .into_iter()
                    .filter(|n| n != axis.default)
                    .collect();
                let mut ends: Vec<AxisValue> = names
                    .first()
                    .into_iter()
                    .chain(names.last())
                    .map(|n| AxisValue::Name(n.clone()))
                    .collect();
                ends.dedup();
                ends
            }
        };
        for v in values.into_iter().filter(|v| v.to_string() != axis.default) {
            let label = format!("{} = {v}", axis.name);
            let mut values = SetupValues::new();
            values.insert(axis.name.to_string(), v);
            if let Ok(setup) = G::resolve_setup(&values) {
                out.push((label, setup));
            }
        }
    }
    out
}

/// Checks `features` and `metrics` of `s`: every declared slot written, all finite.
fn check_numbers<G: Game>(s: &G, at: &str) {
    let mut f = vec![f64::NAN; G::FEATURE_NAMES.len()];
    s.features(&mut f);
    for (name, v) in G::FEATURE_NAMES.iter().zip(&f) {
        assert!(
            v.is_finite(),
            "{at}: feature '{name}' is {v} (not written?)"
        );
    }
}

/// `features_needed` against `features` on `s`: every feature, with all of them needed and
/// with a mask that changes with `k` (each feature left out now and then): a needed feature
/// bit for bit as `features` writes it, one not needed as that or `0.0`.
fn check_needed<G: Game>(s: &G, k: u32, at: &str) {
    let n = G::FEATURE_NAMES.len();
    let mut all = vec![f64::NAN; n];
    s.features(&mut all);
    let masks = [
        u64::MAX,
        0x5555_5555_5555_5555u64.rotate_left(k % 2),
        0,
        !(1 << (k % 64)),
    ];
    for needed in masks {
        let mut got = vec![f64::NAN; n];
        s.features_needed(needed, &mut got);
        for (i, name) in G::FEATURE_NAMES.iter().enumerate() {
            let want = all[i].to_bits();
            if i >= 64 || needed & 1 << i != 0 {
                assert_eq!(
                    got[i].to_bits(),
                    want,
                    "{at}: features_needed({needed:#x}) wrote needed feature '{name}' as {} \
                     where features writes {}",
                    got[i],
                    all[i]
                );
            } else {
                assert!(
                    got[i].to_bits() == want || got[i] == 0.0,
                    "{at}: features_needed({needed:#x}) wrote unneeded feature '{name}' as {} \
                     (neither {} nor 0)",
                    got[i],
                    all[i]
                );
            }
        }
    }
}

/// Plays one random game from `seed` on `setup`, checking the invariants after every step.
fn playout<G: Game>(setup: &G::Setup, seed: u64, deep: bool, label: &str) -> Played<G> {
    let mut srng = stream_rng(seed, 0, Stream::Setup);
    let mut crng = stream_rng(seed, 0, Stream::Chance);
    let mut prng = stream_rng(seed, 0, Stream::Policy);
    let mut s = G::new_game(setup, &mut srng);
    let mut acts = Vec::with_capacity(256);
    let mut again = Vec::with_capacity(256);
    let mut decisions = 0u32;
    loop {
        let at = format!("{} [{label}] seed {seed} decision {decisions}", G::NAME);
        let copy = s;
        assert_eq!(copy, s, "{at}: a copy compares equal");
        let text = s.to_position();
        let back = sololab::position_text::playable::<G>(&text)
            .unwrap_or_else(|e| panic!("{at}: its own position does not load: {e}\n{text}"));
        assert_eq!(back, s, "{at}: position round-trip\n{text}");
        assert_eq!(back.to_position(), text, "{at}: position text round-trip");
        check_numbers(&s, &at);
        if deep {
            check_needed(&s, decisions, &at);
        }

        s.legal_actions(&mut acts);
        let outcome = s.outcome();
        assert_eq!(
            acts.is_empty(),
            outcome.is_some(),
            "{at}: legal actions non-empty exactly while the game goes on ({} actions, outcome \
             {outcome:?})\n{s}",
            acts.len()
        );
        if let Some(outcome) = outcome {
            if let Outcome::Lost(cause) = outcome {
                assert!(
                    (cause as usize) < G::LOSS_CAUSES.len(),
                    "{at}: loss cause {cause} of {}",
                    G::LOSS_CAUSES.len()
                );
            }
            let mut m = vec![i64::MIN; G::METRIC_NAMES.len()];
            s.metrics(&mut m);
            for (name, v) in G::METRIC_NAMES.iter().zip(&m) {
                assert_ne!(*v, i64::MIN, "{at}: metric '{name}' not written");
            }
            return Played {
                last: s,
                decisions,
                outcome,
                metrics: m,
            };
        }
        for (i, a) in acts.iter().enumerate() {
            assert!(!acts[..i].contains(a), "{at}: action {a:?} offered twice");
        }
        if deep {
            for &a in &acts {
                let _ = s.action_text(a);
                let mut child = s;
                let mut rng = GameRng::clone(&crng);
                child.apply(a, &mut rng);
            }
            assert_eq!(s, copy, "{at}: applying to copies changed the state");
            let mut d = s;
            let mut drng = stream_rng(seed, decisions as u64, Stream::Policy);
            d.determinize(&mut drng);
            d.legal_actions(&mut again);
            assert_eq!(again, acts, "{at}: determinize changed the legal actions");
            assert_eq!(d.outcome(), None, "{at}: determinize ended the game");
            // A game whose determinize re-samples something holds what the player cannot see:
            // it must say so, or greedy looks ahead on the true order (the Gods' greedy did).
            assert!(
                d == s || G::HIDDEN_INFORMATION,
                "{at}: determinize re-sampled the state but HIDDEN_INFORMATION is false"
            );
            // Conceal puts exactly what determinize re-samples in one order: a state and any
            // determinization of it conceal alike, and nothing the player sees changes.
            let mut k = s;
            k.conceal();
            let mut kd = d;
            kd.conceal();
            assert_eq!(kd, k, "{at}: a determinized copy conceals to another state");
            let mut kk = k;
            kk.conceal();
            assert_eq!(kk, k, "{at}: conceal is not idempotent");
            k.legal_actions(&mut again);
            assert_eq!(again, acts, "{at}: conceal changed the legal actions");
            assert_eq!(k.outcome(), None, "{at}: conceal ended the game");
            let _ = s.to_string();
        }
        let a = acts[below(&mut prng, acts.len() as u32) as usize];
        s.apply(a, &mut crng);
        decisions += 1;
        assert!(
            decisions <= G::MAX_DECISIONS,
            "{at}: more than MAX_DECISIONS = {} decisions",
            G::MAX_DECISIONS
        );
    }
}

/// Runs the whole suite on game `G`.
fn conformance<G: Game>() {
    let names = |what: &str, list: &[&str]| {
        for (i, n) in list.iter().enumerate() {
            assert!(
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{}: {what} name {n:?} is not snake_case",
                G::NAME
            );
            assert!(!list[..i].contains(n), "{}: {what} '{n}' twice", G::NAME);
        }
    };
    names("loss cause", G::LOSS_CAUSES);
    names("feature", G::FEATURE_NAMES);
    names("metric", G::METRIC_NAMES);
    assert!(!G::LOSS_CAUSES.is_empty(), "{}: no loss causes", G::NAME);

    for (label, setup) in setups::<G>() {
        let seeds = if label == "default" {
            DEFAULT_SEEDS
        } else {
            AXIS_SEEDS
        };
        for seed in 0..seeds {
            let p = playout::<G>(&setup, seed, seed < DEEP_SEEDS, &label);
            if seed < DEEP_SEEDS {
                let q = playout::<G>(&setup, seed, false, &label);
                assert_eq!(
                    p,
                    q,
                    "{} [{label}] seed {seed}: the same seeds gave another game",
                    G::NAME
                );
            }
        }
    }
    // Different seeds give different games (the setup and chance streams are used).
    let setup = &setups::<G>()[0].1;
    let firsts: Vec<G> = (0..20)
        .map(|seed| playout::<G>(setup, seed, false, "default").last)
        .collect();
    assert!(
        firsts.iter().any(|s| *s != firsts[0]),
        "{}: 20 seeds all ended in the same state",
        G::NAME
    );
}

#[test]
fn every_registered_game_conforms() {
    // One thread per game, so a game's failure names it and the others still run.
    let failed: Vec<&str> = std::thread::scope(|scope| {
        let handles: Vec<_> = GameKind::ALL
            .iter()
            .map(|&kind| {
                let h = std::thread::Builder::new()
                    .name(kind.name().to_string())
                    .spawn_scoped(scope, move || with_game!(kind, G => conformance::<G>()))
                    .expect("spawn a test thread");
                (kind.name(), h)
            })
            .collect();
        handles
            .into_iter()
            .filter_map(|(name, h)| h.join().is_err().then_some(name))
            .collect()
    });
    assert!(failed.is_empty(), "games failing conformance: {failed:?}");
}

#[test]
fn race_fixture_conforms() {
    conformance::<Race>();
}

#[test]
fn every_registered_game_is_listed_once_by_a_distinct_name() {
    for (i, kind) in GameKind::ALL.iter().enumerate() {
        assert_eq!(GameKind::from_name(kind.name()), Ok(*kind));
        assert_eq!(with_game!(*kind, G => G::NAME), kind.name());
        assert!(!GameKind::ALL[..i].contains(kind), "{kind:?} listed twice");
    }
}
