//! Helpers the rules tests of every game share (`mod common;` in a test file): a state from its
//! position text, the legal actions as a list, an action played after checking that it is
//! legal, and a base position with some of its lines replaced. Game-agnostic: each works through
//! the [`Game`] trait, so a game's test file keeps only what builds its own positions.

// Each test binary compiles this module and uses some of it.
#![allow(dead_code)]

use sololab::{Game, GameRng, VecTrace};

/// The state of position `text` (`Game::from_position`).
///
/// # Panics
/// When the text does not parse: the message has the error (with its line) and the text.
pub fn parse<G: Game>(text: &str) -> G {
    G::from_position(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Asserts that `g` reads back from its own position text as the same state.
///
/// # Panics
/// When it does not parse back, or parses to another state.
pub fn assert_round_trip<G: Game>(g: &G) {
    let text = g.to_position();
    let again: G = parse(&text);
    assert_eq!(&again, g, "position round trip:\n{text}");
}

/// The legal actions of `g`, in the game's order (`Game::legal_actions`).
pub fn legal<G: Game>(g: &G) -> Vec<G::Action> {
    let mut v = Vec::new();
    g.legal_actions(&mut v);
    v
}

/// Plays `a` in `g` with chance from `rng` and returns the trace's lines.
///
/// # Panics
/// When `a` is not among `g`'s legal actions (the message lists them and shows the state).
pub fn act_traced<G: Game>(g: &mut G, a: G::Action, rng: &mut GameRng) -> Vec<String> {
    let l = legal(g);
    assert!(l.contains(&a), "{a:?} is not legal: {l:?}\n{g}");
    let mut trace = VecTrace::default();
    g.apply_traced(a, rng, &mut trace);
    trace.0
}

/// [`act_traced`] without the trace.
///
/// # Panics
/// As [`act_traced`].
pub fn act<G: Game>(g: &mut G, a: G::Action, rng: &mut GameRng) {
    act_traced(g, a, rng);
}

/// The position text `base` with the lines of `over` (trimmed, blank ones skipped) in place of
/// the base's lines of the same key, `key(line)`: base lines whose key no line of `over` has
/// are kept in their order, then every line of `over` follows in its order.
pub fn overlay(base: &str, over: &str, key: impl Fn(&str) -> String) -> String {
    let over: Vec<&str> = over
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let keys: Vec<String> = over.iter().map(|o| key(o)).collect();
    let mut text = String::new();
    for l in base.lines() {
        if !keys.contains(&key(l)) {
            text.push_str(l);
            text.push('\n');
        }
    }
    for o in &over {
        text.push_str(o);
        text.push('\n');
    }
    text
}

/// The key of a position line for [`overlay`]: its first word, and for the keys in `indexed`
/// (entries told apart by their second word, as `fateling 3`) its first two words.
pub fn line_key<'a>(indexed: &'a [&'a str]) -> impl Fn(&str) -> String + 'a {
    move |l: &str| {
        let mut w = l.split_whitespace();
        let k = w.next().unwrap_or("");
        if indexed.contains(&k) {
            format!("{k} {}", w.next().unwrap_or(""))
        } else {
            k.to_string()
        }
    }
}
