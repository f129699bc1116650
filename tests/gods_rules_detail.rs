//! I Bury the Gods: rules details that the cases (`tests/gods_cases.rs`) leave loose, each set
//! up through a position text and each asserting a value: written to kill the mutants of
//! `src/games/gods/rules.rs` and `ai.rs` that survived the cases (`results/mutants/gods.md`).

use sololab::Game;
use sololab::games::gods::Gods;
use sololab::games::gods::ai::Reaction;
use sololab::games::gods::content::builtin;

/// A position on encounter `enc`: the encounter's start, with `lines` replacing the lines of the
/// same key (`fateling N` by its 1-based number).
fn at(enc: &str, lines: &str) -> Gods {
    let c = builtin();
    let base = Gods::blank(c, c.encounter_index(enc).unwrap());
    let key = |l: &str| {
        let mut w = l.split_whitespace();
        let k = w.next().unwrap_or("").to_string();
        if k == "fateling" {
            format!("{k} {}", w.next().unwrap_or(""))
        } else {
            k
        }
    };
    let over: Vec<&str> = lines
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut text = String::new();
    for l in base.to_position().lines() {
        if !over.iter().any(|o| key(o) == key(l)) {
            text.push_str(l);
            text.push('\n');
        }
    }
    for o in &over {
        text.push_str(o);
        text.push('\n');
    }
    let g = Gods::from_position(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(Gods::from_position(&g.to_position()).unwrap(), g);
    g
}

/// The Scoundrel at `me` and fateling number `n` (1-based) at `it` on `enc`, Scoundrel phase,
/// `noise` as given.
fn pair(enc: &str, noise: u8, me: &str, n: usize, it: &str) -> Gods {
    at(
        enc,
        &format!(
            "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise={noise} result=0 decisions=0\n\
             scoundrel at={me}\n\
             fateling {n} state=active at={it} wounds=0 activated=0 patrol=1"
        ),
    )
}

/// What fateling `f` does when nothing is sensed: patrol along its route, else stand still.
fn idle(g: &Gods, f: usize) -> Reaction {
    if g.enc().fatelings[f].patrol.is_empty() {
        Reaction::Stand
    } else {
        Reaction::Patrol
    }
}

/// Each reaction's distance counts up to and including its value (Fate, Reactions; CONTENT.md,
/// "Distances": within X means edge to edge at most X, with a hundredth's tolerance): at
/// exactly the value the reaction holds, 0.05 inch beyond it does not.
#[test]
fn each_reaction_holds_at_exactly_its_distance_and_not_beyond() {
    // Reach 1: a guard 2 inches between centres (bases 0.5 and 0.5) attacks.
    let g = pair("sentries", 0, "(16.00,5.00)", 1, "(16.00,7.00)");
    assert!((g.distance(0) - 1.0).abs() < 1e-5, "{}", g.distance(0));
    assert_eq!(g.reaction(0), Reaction::Attack);
    let g = pair("sentries", 0, "(16.00,5.00)", 1, "(16.00,7.05)");
    assert_eq!(g.reaction(0), Reaction::Sight);

    // Hearing 8, behind a wall (no line of sight), she made noise: a guard comes.
    let g = pair("sentries", 1, "(4.00,17.00)", 1, "(13.00,17.00)");
    assert!(!g.line_of_sight(0));
    assert!((g.distance(0) - 8.0).abs() < 1e-5, "{}", g.distance(0));
    assert_eq!(g.reaction(0), Reaction::Hearing);
    let g = pair("sentries", 1, "(3.95,17.00)", 1, "(13.00,17.00)");
    assert_eq!(g.reaction(0), idle(&g, 0));
    // Without noise nothing is heard at the same place.
    let g = pair("sentries", 0, "(4.00,17.00)", 1, "(13.00,17.00)");
    assert_eq!(g.reaction(0), idle(&g, 0));

    // Smell 3, behind the same wall, no noise.
    let g = pair("sentries", 0, "(9.00,17.00)", 1, "(13.00,17.00)");
    assert!(!g.line_of_sight(0));
    assert!((g.distance(0) - 3.0).abs() < 1e-5, "{}", g.distance(0));
    assert_eq!(g.reaction(0), Reaction::Smell);
    let g = pair("sentries", 0, "(8.95,17.00)", 1, "(13.00,17.00)");
    assert_eq!(g.reaction(0), idle(&g, 0));

    // Blind sight 6: the crawler (base 0.6, no patrol) in the open sees her at 6, not at 6.05.
    let g = pair("sentries", 0, "(23.90,20.00)", 3, "(31.00,20.00)");
    assert!(g.line_of_sight(2));
    assert!((g.distance(2) - 6.0).abs() < 1e-5, "{}", g.distance(2));
    assert_eq!(g.reaction(2), Reaction::Sight);
    let g = pair("sentries", 0, "(23.85,20.00)", 3, "(31.00,20.00)");
    assert_eq!(g.reaction(2), idle(&g, 2));

    // Keen senses 12: a wolf (base 0.6, no patrol) behind a pillar counts her as in sight.
    let g = pair("wolf_pack", 0, "(18.00,12.90)", 1, "(18.00,26.00)");
    assert!(!g.line_of_sight(0));
    assert!((g.distance(0) - 12.0).abs() < 1e-5, "{}", g.distance(0));
    assert_eq!(g.reaction(0), Reaction::Sight);
    let g = pair("wolf_pack", 0, "(18.00,12.85)", 1, "(18.00,26.00)");
    assert_eq!(g.reaction(0), idle(&g, 0));

    // Ranged 10: a harpy (base 0.6) in the open shoots at 10, moves toward her at 10.05.
    let g = pair("haunted_ruins", 0, "(4.00,16.90)", 2, "(4.00,28.00)");
    assert!(g.line_of_sight(1));
    assert!((g.distance(1) - 10.0).abs() < 1e-5, "{}", g.distance(1));
    assert_eq!(g.reaction(1), Reaction::Shoot);
    let g = pair("haunted_ruins", 0, "(4.00,16.85)", 2, "(4.00,28.00)");
    assert_eq!(g.reaction(1), Reaction::Sight);
}
