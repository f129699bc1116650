//! I Bury the Gods: rules details that the cases (`tests/gods_cases.rs`) leave loose, each set
//! up through a position text and each asserting a value: written to kill the mutants of
//! `src/games/gods/rules.rs` and `ai.rs` that survived the cases (`results/mutants/gods.md`).

mod common;

use common::legal;

use sololab::games::gods::Gods;
use sololab::games::gods::ai::Reaction;
use sololab::games::gods::content::{
    AIM, BUILTIN_TOML, Content, DODGE, EventKind, STRENGTH, builtin,
};
use sololab::games::gods::content_file;
use sololab::games::gods::geometry::{Pos, Pt, edge_distance, line_of_sight};
use sololab::games::gods::rules::{Goal, GodsAction, Hit, d10, judge};
use sololab::games::gods::state::{FState, Phase};
use sololab::{Game, NoTrace, Outcome, Stream, VecTrace, stream_rng};

/// A position on encounter `enc`: the encounter's start, with `lines` replacing the lines of the
/// same key (`fateling N` by its 1-based number).
fn at(enc: &str, lines: &str) -> Gods {
    let c = builtin();
    let base = Gods::blank(c, c.encounter_index(enc).unwrap());
    let key = common::line_key(&["fateling"]);
    let g: Gods = common::parse(&common::overlay(&base.to_position(), lines, key));
    common::assert_round_trip(&g);
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

/// Activates fateling `f` of `g` (both its actions) and returns the result.
fn activated(g: &Gods, f: usize) -> Gods {
    let mut h = *g;
    h.activate(f, &mut stream_rng(1, 0, Stream::Chance), &mut NoTrace);
    h
}

/// Guard 1 of `sentries` (Move 4, patrol (16,18) then (16,6): index 0, 1; `patrol=1`, `2` in
/// the position text) at `it` with patrol index `patrol`, the Scoundrel at `me` (hidden from it behind the walls at x 10-12 and too far
/// to be heard or smelled), so that each of its two actions is a patrol move.
fn patrolling(it: &str, patrol: u8, me: &str) -> Gods {
    at(
        "sentries",
        &format!(
            "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
             scoundrel at={me}\n\
             fateling 1 state=active at={it} wounds=0 activated=0 patrol={}",
            patrol + 1
        ),
    )
}

/// A patrol (Fate, Reactions: "moves toward its next patrol point"): a fateling walks toward
/// the point its patrol index names; standing on it, it turns to the next one (wrapping); and
/// arriving, its index moves on to the next point.
#[test]
fn a_patrol_walks_to_the_indexed_point_turns_on_it_and_moves_on_when_it_arrives() {
    let pt = |g: &Gods| g.fatelings[0].at;
    let pos = |s: &str| Pos::parse(s).unwrap();
    // Index 1, between the points: toward (16,6): 4 inches to (16,8), then 2 more, arriving.
    let g = patrolling("(16.00,12.00)", 1, "(3.00,7.00)");
    assert_eq!(g.reaction(0), Reaction::Patrol);
    let h = activated(&g, 0);
    assert_eq!(pt(&h), pos("(16.00,6.00)"));
    assert_eq!(
        h.fatelings[0].patrol, 0,
        "arrived at point 1: next is point 0"
    );
    // Standing on point 1: it turns to point 0 (16,18) and walks 8 inches toward it.
    let h = activated(&patrolling("(16.00,6.00)", 1, "(3.00,7.00)"), 0);
    assert_eq!(pt(&h), pos("(16.00,14.00)"));
    assert_eq!(h.fatelings[0].patrol, 0);
    // Standing on point 0: it turns to point 1 (wrapping back to the first index).
    let h = activated(&patrolling("(16.00,18.00)", 0, "(3.00,17.00)"), 0);
    assert_eq!(pt(&h), pos("(16.00,10.00)"));
    assert_eq!(h.fatelings[0].patrol, 1);
}

/// Arriving on a patrol point moves the index on at once: a guard 3 inches from point 0 arrives
/// with its first action and, hearing the Scoundrel from there (noise, 7.56 inches behind the
/// wall), spends its second moving toward her: its index is already 1.
#[test]
fn arriving_on_a_patrol_point_moves_the_index_on_before_the_next_action() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=1 result=0 decisions=0\n\
         scoundrel at=(7.50,19.00)\n\
         fateling 1 state=active at=(16.00,15.00) wounds=0 activated=0 patrol=1",
    );
    assert_eq!(g.reaction(0), Reaction::Patrol, "{}", g.distance(0));
    let h = activated(&g, 0);
    assert_eq!(h.fatelings[0].patrol, 1);
    let mut k = h;
    k.fatelings[0].at = Pos::parse("(16.00,18.00)").unwrap();
    assert_eq!(k.reaction(0), Reaction::Hearing, "{}", k.distance(0));
    assert_ne!(
        h.fatelings[0].at, k.fatelings[0].at,
        "the second action moved it"
    );
}

/// A walking fateling goes around an obstacle (Movement): a guard hearing the Scoundrel
/// straight behind a wall leaves the straight line; it would keep to it if it flew.
#[test]
fn a_walking_fateling_goes_around_a_wall_not_over_it() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=1 result=0 decisions=0\n\
         scoundrel at=(7.50,17.00)\n\
         fateling 1 state=active at=(14.00,17.00) wounds=0 activated=0 patrol=1",
    );
    assert!(!g.line_of_sight(0));
    assert_eq!(g.reaction(0), Reaction::Hearing);
    let mut h = g;
    h.fateling_move(0, g.scoundrel(), &mut NoTrace);
    let y = h.fatelings[0].at.pt().y;
    assert!((y - 17.0).abs() > 0.5, "{}", h.fatelings[0].at);
}

/// A slain fateling does nothing when activated (activation guard: neither action is taken).
#[test]
fn activating_a_fateling_no_longer_on_the_table_does_nothing() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         scoundrel at=(3.00,7.00)\n\
         fateling 1 state=slain at=(16.00,12.00) wounds=3 activated=0 patrol=2",
    );
    let h = activated(&g, 0);
    assert_eq!(h.fatelings[0].at, g.fatelings[0].at);
    assert_eq!(
        h.fatelings[0].patrol, 1,
        "patrol index as set (text patrol=2)"
    );
}

/// A summon (the witch's event) places the reserve ghoul on its start point unless a base
/// overlaps it there: a base touching it (edge to edge 0) does not stop it, one overlapping
/// by half an inch does.
#[test]
fn a_summon_is_stopped_only_by_a_base_overlapping_the_place() {
    let summon = |me: &str| {
        let g = at(
            "witch_coven",
            &format!(
                "clock round=3 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
                 scoundrel at={me}\n\
                 fateling 6 state=reserve at=(18.00,33.00) wounds=0 activated=0 patrol=1"
            ),
        );
        let ev = g.enc().events[1];
        let mut h = g;
        h.event(ev, &mut stream_rng(1, 0, Stream::Chance), &mut NoTrace);
        h.fatelings[5].state
    };
    assert_eq!(summon("(18.00,32.00)"), FState::Active, "bases touching");
    assert_eq!(
        summon("(18.00,32.50)"),
        FState::Reserve,
        "bases overlapping"
    );
    assert_eq!(summon("(10.00,10.00)"), FState::Active, "far away");
}

/// `Gods::sees` (a feature of the search players): true when the reaction is to attack, shoot
/// or come on sight (keen senses and a blind fateling's near sight included), and for a
/// fateling that is not blind whenever the line of sight is clear; false for a blind fateling
/// in clear sight beyond 6 inches and for one behind a wall.
#[test]
fn sees_follows_the_sight_reactions_and_blindness() {
    // The blind crawler in the open: sees her at 6 inches, not at 10.
    let g = pair("sentries", 0, "(23.90,20.00)", 3, "(31.00,20.00)");
    assert!(g.sees(2));
    let g = pair("sentries", 0, "(19.90,20.00)", 3, "(31.00,20.00)");
    assert!(g.line_of_sight(2));
    assert!(!g.sees(2));
    // A wolf behind a pillar, within keen senses.
    let g = pair("wolf_pack", 0, "(18.00,12.90)", 1, "(18.00,26.00)");
    assert!(!g.line_of_sight(0));
    assert!(g.sees(0));
    // A guard behind the wall, no noise.
    let g = pair("sentries", 0, "(3.00,7.00)", 1, "(16.00,12.00)");
    assert!(!g.line_of_sight(0));
    assert!(!g.sees(0));
    // A guard in the open.
    let g = pair("sentries", 0, "(20.00,12.00)", 1, "(16.00,12.00)");
    assert!(g.line_of_sight(0));
    assert!(g.sees(0));
}

/// A ten-sided die shows 1 to 10, each face in about a tenth of the rolls.
#[test]
fn a_d10_shows_one_to_ten() {
    let mut rng = stream_rng(7, 0, Stream::Chance);
    let mut seen = [0u32; 11];
    for _ in 0..2000 {
        let d = d10(&mut rng);
        assert!((1..=10).contains(&d), "{d}");
        seen[d as usize] += 1;
    }
    assert!(
        seen[1..].iter().all(|&n| (140..=260).contains(&n)),
        "{seen:?}"
    );
}

/// A shot's target number (Shoot): +1 beyond the optimal range (8 inches: at exactly 8 not
/// beyond, at 8.05 beyond), −1 only against a large target.
#[test]
fn a_shot_is_beyond_optimal_range_only_past_it_and_large_only_for_large_targets() {
    // A guard (not large, defense 6, nothing within 1 inch of it), west of the rock at
    // (17, 3) so that the Scoundrel's base is clear of it.
    let g = pair("sentries", 0, "(14.00,2.00)", 1, "(14.00,11.00)");
    assert!((g.distance(0) - 8.0).abs() < 1e-5, "{}", g.distance(0));
    let (t, far, large, cover) = g.shoot_target(0);
    assert!(!far && !large && !cover);
    assert_eq!(t, 6 - g.ability(AIM));
    // At 8.01 (the tolerance's edge, exactly 8 + 0.01 in f32): still not beyond.
    let g = pair("sentries", 0, "(14.00,1.99)", 1, "(14.00,11.00)");
    assert_eq!(g.distance(0), 8.0f32 + 0.01);
    assert!(!g.shoot_target(0).1);
    let g = pair("sentries", 0, "(14.00,2.00)", 1, "(14.00,11.05)");
    let (t, far, large, _) = g.shoot_target(0);
    assert!(far && !large);
    assert_eq!(t, 6 - g.ability(AIM) + 1);
    // The brute is large.
    let g = pair("lone_brute", 0, "(6.00,6.00)", 1, "(6.00,14.00)");
    let (_, _, large, _) = g.shoot_target(0);
    assert!(large);
}

/// The patrol's "on the point" tolerance is strictly less than 0.05 inch: Guard 2 of
/// `witch_coven` (patrol (34,28) then (28,28)) 0.03 and 0.04 inch off point 0, exactly 0.05
/// away, is not on it: it walks the 0.05 inch onto it (arriving: index 1) and then 4 inches
/// toward point 1. Held in place by a base in contact (Archer 2 where it would step), it stays
/// 0.05 away and keeps index 0.
#[test]
fn a_patrol_point_is_reached_only_within_less_than_five_hundredths() {
    let guard = |extra: &str| {
        at(
            "witch_coven",
            &format!(
                "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
                 scoundrel at=(36.00,10.00)\n\
                 fateling 3 state=active at=(33.97,27.96) wounds=0 activated=0 patrol=1\n{extra}"
            ),
        )
    };
    let g = guard("");
    assert_eq!(
        g.fatelings[2].at.pt().dist(g.enc().fatelings[2].patrol[0]),
        0.05f32
    );
    assert_eq!(g.reaction(2), Reaction::Patrol);
    let h = activated(&g, 2);
    assert_eq!(h.fatelings[2].at, Pos::parse("(30.00,28.00)").unwrap());
    assert_eq!(h.fatelings[2].patrol, 1);
    let g = guard("fateling 5 state=active at=(34.57,28.76) wounds=0 activated=0 patrol=1");
    assert_eq!(g.reaction(2), Reaction::Patrol);
    let h = activated(&g, 2);
    assert_eq!(h.fatelings[2].at, g.fatelings[2].at);
    assert_eq!(h.fatelings[2].patrol, 0);
}

/// Moving toward a fateling is offered only beyond reach (Actions: at exactly 1 inch she
/// attacks it instead), and never toward a fateling off the table.
#[test]
fn a_move_toward_a_fateling_is_offered_only_beyond_reach() {
    let toward = GodsAction::Move {
        goal: Goal::Toward(0),
        half: false,
    };
    let g = pair("sentries", 0, "(16.00,5.00)", 1, "(16.00,7.00)");
    let l = legal(&g);
    assert!(l.contains(&GodsAction::Attack(0)));
    assert!(!l.contains(&toward) && !l.contains(&GodsAction::Sneak(Goal::Toward(0))));
    let g = pair("sentries", 0, "(16.00,5.00)", 1, "(16.00,7.05)");
    let l = legal(&g);
    assert!(!l.contains(&GodsAction::Attack(0)));
    assert!(l.contains(&toward) && l.contains(&GodsAction::Sneak(Goal::Toward(0))));
    let mut g = g;
    g.fatelings[0].state = FState::Slain;
    assert!(!legal(&g).contains(&toward));
}

/// Shooting is offered up to the weapon's longest range (24 inches) inclusive: at exactly 24
/// in clear sight and out of combat yes, at 24.05 no.
#[test]
fn a_shot_is_offered_up_to_exactly_the_longest_range() {
    let g = pair("sentries", 0, "(3.00,23.00)", 2, "(28.00,23.00)");
    assert!(g.line_of_sight(1) && !g.in_combat());
    assert!((g.distance(1) - 24.0).abs() < 1e-5, "{}", g.distance(1));
    assert!(legal(&g).contains(&GodsAction::Shoot(1)));
    let g = pair("sentries", 0, "(3.00,23.00)", 2, "(28.05,23.00)");
    assert!(g.line_of_sight(1));
    assert!(!legal(&g).contains(&GodsAction::Shoot(1)));
}

/// With no action left in her phase she may only play assets or end it (Scoundrel phase).
#[test]
fn with_no_action_left_only_the_end_remains() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=0 assets_used=0 noise=0 result=0 decisions=0\n\
         scoundrel at=(16.00,5.00)\n\
         fateling 1 state=active at=(16.00,7.00) wounds=0 activated=0 patrol=1",
    );
    assert_eq!(legal(&g), vec![GodsAction::End]);
}

/// Second Wind turns a face-up wound face down: it is offered once per face-up wound and for
/// no face-down one (three wounds drawn, only the second face up).
#[test]
fn second_wind_is_offered_for_each_face_up_wound_only() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         hand Second_Wind=1\n\
         wounds drawn=3 face_up=2",
    );
    let card = g
        .content
        .assets
        .iter()
        .position(|a| a.name == "Second Wind")
        .unwrap() as u8;
    let offered: Vec<u8> = legal(&g)
        .into_iter()
        .filter_map(|a| match a {
            GodsAction::Asset { card: c, wound } if c == card => Some(wound),
            _ => None,
        })
        .collect();
    assert_eq!(offered, vec![1]);
}

/// An attack spends one of her actions, makes noise and is counted (Attack; the tally's
/// attacks).
#[test]
fn an_attack_spends_an_action_makes_noise_and_is_counted() {
    let g = pair("sentries", 0, "(16.00,5.00)", 1, "(16.00,7.00)");
    let mut h = g;
    h.apply_traced(
        GodsAction::Attack(0),
        &mut stream_rng(1, 0, Stream::Chance),
        &mut NoTrace,
    );
    assert_eq!(h.actions_left, 1);
    assert!(h.noise);
    assert_eq!(h.tally.attacks, 1);
}

/// A shot and a prepare each spend one of her actions and are counted (Shoot, Prepare; the
/// tally's shots and prepares); a shot makes noise.
#[test]
fn a_shot_and_a_prepare_each_spend_an_action_and_are_counted() {
    let g = pair("sentries", 0, "(20.00,12.00)", 1, "(16.00,12.00)");
    let mut h = g;
    h.apply_traced(
        GodsAction::Shoot(0),
        &mut stream_rng(1, 0, Stream::Chance),
        &mut NoTrace,
    );
    assert_eq!(h.actions_left, 1);
    assert!(h.noise);
    assert_eq!((h.tally.shots, h.tally.attacks), (1, 0));
    let mut h = g;
    h.apply_traced(
        GodsAction::Prepare,
        &mut stream_rng(1, 0, Stream::Chance),
        &mut NoTrace,
    );
    assert_eq!(h.actions_left, 1);
    assert_eq!((h.tally.prepares, h.tally.shots), (1, 0));
}

/// Reaching the objective (sentries: the Relic, radius 1, at (33,12)) wins when her base
/// touches it: centres 1.5 inches apart (her base 0.5) is reached, 1.55 is not.
#[test]
fn the_objective_is_reached_when_the_bases_touch() {
    // The blind Crawler (fateling 3) starts at (31, 12) by the Relic: moved aside, so that the
    // Scoundrel's base can touch the Relic's circle there.
    let reached = |me: &str| {
        let mut g = at(
            "sentries",
            &format!(
                "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
                 scoundrel at={me}\n\
                 fateling 3 state=active at=(31.00,18.00) wounds=0 activated=0 patrol=1"
            ),
        );
        g.check_end(&mut NoTrace);
        g.outcome()
    };
    assert_eq!(reached("(31.50,12.00)"), Some(Outcome::Won));
    assert_eq!(reached("(31.45,12.00)"), None);
}

/// At exactly the attack reach plus the tolerance (edge to edge 1.01 inch, which these
/// hundredths give exactly in f32: centres 2.01 apart near the table's edge) she attacks and is
/// not offered a move toward the fateling; 0.01 further she is offered the move, not the attack.
#[test]
fn at_exactly_the_reach_tolerance_she_attacks_instead_of_moving_toward() {
    let toward = GodsAction::Move {
        goal: Goal::Toward(0),
        half: false,
    };
    let g = pair("sentries", 0, "(5.00,1.00)", 1, "(5.00,3.01)");
    assert_eq!(g.distance(0), 1.0f32 + 0.01);
    let l = legal(&g);
    assert!(l.contains(&GodsAction::Attack(0)));
    assert!(!l.contains(&toward) && !l.contains(&GodsAction::Sneak(Goal::Toward(0))));
    let g = pair("sentries", 0, "(5.00,1.00)", 1, "(5.00,3.02)");
    assert!(g.distance(0) > 1.0f32 + 0.01);
    let l = legal(&g);
    assert!(!l.contains(&GodsAction::Attack(0)));
    assert!(l.contains(&toward));
}

/// The index of the asset card named `name` in the builtin content.
fn card(g: &Gods, name: &str) -> u8 {
    g.content
        .assets
        .iter()
        .position(|a| a.name == name)
        .unwrap() as u8
}

/// An attack that spends her last action and misses a die with Precise Strike in hand waits
/// for the re-roll decision (Assets): the fate phase does not run meanwhile (still round 1, the
/// guard unmoved, only re-roll or accept offered).
#[test]
fn a_pending_reroll_on_her_last_action_holds_the_fate_phase() {
    let g = at(
        "sentries",
        "abilities strength=0,aim=1,wits=2,dodge=3\n\
         clock round=1 phase=scoundrel actions_left=1 assets_used=0 noise=0 result=0 decisions=0\n\
         scoundrel at=(16.00,5.00)\n\
         fateling 1 state=active at=(16.00,7.00) wounds=0 activated=0 patrol=1\n\
         hand Precise_Strike=1",
    );
    let target = g.attack_target(0);
    assert_eq!(target, 6 - g.ability(STRENGTH));
    let mut pending = 0;
    for seed in 0..12 {
        let mut rng = stream_rng(seed, 0, Stream::Chance);
        let mut copy = rng.clone();
        let dice = [d10(&mut copy), d10(&mut copy)];
        let mut h = g;
        h.apply_traced(GodsAction::Attack(0), &mut rng, &mut NoTrace);
        if judge(dice, target, g.natural) == Hit::Strong {
            continue;
        }
        pending += 1;
        assert_eq!(h.phase, Phase::Reroll, "seed {seed} dice {dice:?}");
        assert_eq!((h.round, h.actions_left), (1, 0));
        assert_eq!(h.fatelings[0].at, g.fatelings[0].at);
        assert_eq!(legal(&h), vec![GodsAction::Reroll, GodsAction::Accept]);
        assert_eq!(h.pending.dice, dice);
    }
    assert!(pending >= 3, "{pending} seeds missed a die");
}

/// The witch's events (curse every 2 rounds, summons every 3) happen only at the end of a
/// round whose number is a multiple of their period: ending round 1 neither curses nor
/// summons; ending round 3 summons both ghouls.
#[test]
fn the_witchs_events_happen_only_in_rounds_that_are_multiples_of_their_period() {
    let end_of = |round: u8| {
        let mut g = at(
            "witch_coven",
            &format!(
                "clock round={round} phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
                 scoundrel at=(24.00,2.00)\n\
                 fateling 1 state=active at=(24.00,31.00) wounds=0 activated=1 patrol=1\n\
                 fateling 2 state=active at=(20.00,28.00) wounds=0 activated=1 patrol=1\n\
                 fateling 3 state=active at=(28.00,28.00) wounds=0 activated=1 patrol=1\n\
                 fateling 4 state=active at=(12.00,16.50) wounds=0 activated=1 patrol=1\n\
                 fateling 5 state=active at=(36.00,16.50) wounds=0 activated=1 patrol=1"
            ),
        );
        assert!(g.enc().events.iter().all(|e| e.every > 1));
        g.apply_traced(
            GodsAction::End,
            &mut stream_rng(1, 0, Stream::Chance),
            &mut NoTrace,
        );
        assert_eq!((g.round, g.phase), (round + 1, Phase::Scoundrel));
        g
    };
    let g = end_of(1);
    assert_eq!(g.fatelings[5].state, FState::Reserve);
    assert_eq!(g.fatelings[6].state, FState::Reserve);
    assert_eq!(g.wounds_drawn, 0, "no curse");
    let g = end_of(3);
    assert_eq!(g.fatelings[5].state, FState::Active);
    assert_eq!(g.fatelings[6].state, FState::Active);
}

/// Slaying a fateling counts in the tally (a reported metric): a guard (3 wounds) with 1
/// suffers a strong hit (2 damage) and perishes; the tally's slain goes from 1 to 2 and its
/// damage from 2 to 4. A weak hit that does not slay counts damage only.
#[test]
fn slaying_a_fateling_is_counted_in_the_tally() {
    let mut g = at(
        "sentries",
        "fateling 1 state=active at=(16.00,6.00) wounds=1 activated=0 patrol=1\n\
         tally slain=1 damage=2 attacks=0 shots=0 prepares=0 assets=0",
    );
    let mut h = g;
    h.damage(0, Hit::Strong, &mut NoTrace);
    assert_eq!(h.fatelings[0].state, FState::Slain);
    assert_eq!((h.tally.slain, h.tally.damage), (2, 4));
    g.damage(0, Hit::Weak, &mut NoTrace);
    assert_eq!(g.fatelings[0].state, FState::Active);
    assert_eq!((g.tally.slain, g.tally.damage), (1, 3));
}

/// The dodge test's target is the score minus her dodge (case G4) with dodge 3: over seeded
/// dice, a strong hit leaves her unhurt, a weak hit draws a wound face down, a miss face up, as
/// the dice against `score - 3` say; the trace states that target.
#[test]
fn the_dodge_test_subtracts_her_dodge_from_the_score() {
    let g = at(
        "sentries",
        "abilities strength=0,aim=1,wits=2,dodge=3\nwounds drawn=0 face_up=-",
    );
    assert_eq!(g.ability(DODGE), 3);
    let score = 8;
    let mut seen = [0; 3];
    for seed in 0..30 {
        let mut rng = stream_rng(seed, 0, Stream::Chance);
        let mut copy = rng.clone();
        let dice = [d10(&mut copy), d10(&mut copy)];
        let hit = judge(dice, score - 3, g.natural);
        let mut h = g;
        let mut trace = VecTrace::default();
        h.dodge_test(score, &mut rng, &mut trace);
        let (drawn, up) = match hit {
            Hit::Strong => (0, 0),
            Hit::Weak => (1, 0),
            Hit::Miss => (1, 1),
        };
        seen[drawn as usize + up as usize] += 1;
        assert_eq!(
            (h.wounds_drawn, h.face_up),
            (drawn, up),
            "seed {seed} dice {dice:?}"
        );
        assert!(
            trace.0[0].contains("dodge test, target 5 (8 - dodge 3)"),
            "{:?}",
            trace.0
        );
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// A wound drawn face up lies face up in its own draw slot: the second card drawn face up
/// sets slot 2 (not slot 1) and its effect applies.
#[test]
fn a_second_wound_drawn_face_up_lies_face_up_in_its_slot() {
    let g = at("sentries", "wounds drawn=1 face_up=-");
    let mut h = g;
    h.draw_wound(true, &mut NoTrace);
    assert_eq!((h.wounds_drawn, h.face_up), (2, 0b10));
    let effect = g.content.wounds[g.wound_deck[1] as usize].effect;
    assert_eq!(h.face_up_effects(effect), 1);
    assert_eq!(g.face_up_effects(effect), 0);
    let mut h = g;
    h.draw_wound(false, &mut NoTrace);
    assert_eq!((h.wounds_drawn, h.face_up), (2, 0));
}

/// Second Wind turns the chosen face-up wound face down (here the second of three drawn, the
/// only one face up), and playing it counts in the tally's assets and against the phase's one
/// asset.
#[test]
fn second_wind_turns_the_chosen_wound_face_down_and_is_counted() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         hand Second_Wind=1\n\
         wounds drawn=3 face_up=2,3",
    );
    let sw = card(&g, "Second Wind");
    let mut h = g;
    h.apply_traced(
        GodsAction::Asset { card: sw, wound: 1 },
        &mut stream_rng(1, 0, Stream::Chance),
        &mut NoTrace,
    );
    assert_eq!(h.face_up, 0b100);
    assert_eq!(h.hand[sw as usize], 0);
    assert_eq!((h.tally.assets, h.assets_used), (1, 1));
}

/// Quick Step gives one more action this phase and counts in the tally's assets (from 2 to 3).
#[test]
fn quick_step_gives_an_action_and_is_counted() {
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=1 assets_used=0 noise=0 result=0 decisions=0\n\
         hand Quick_Step=1\n\
         tally slain=0 damage=0 attacks=0 shots=0 prepares=0 assets=2",
    );
    let qs = card(&g, "Quick Step");
    let mut h = g;
    h.apply_traced(
        GodsAction::Asset {
            card: qs,
            wound: u8::MAX,
        },
        &mut stream_rng(1, 0, Stream::Chance),
        &mut NoTrace,
    );
    assert_eq!((h.actions_left, h.tally.assets), (2, 3));
}

/// Scavenge draws the top two asset cards into the hand and the trace says how many it drew:
/// two from a deck of three, one from a deck of one.
#[test]
fn scavenge_draws_two_cards_and_says_how_many() {
    let play = |deck: &str| {
        let g = at(
            "sentries",
            &format!(
                "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
                 hand Scavenge=1\n\
                 asset_deck {deck}"
            ),
        );
        let sc = card(&g, "Scavenge");
        let mut h = g;
        let mut trace = VecTrace::default();
        h.apply_traced(
            GodsAction::Asset {
                card: sc,
                wound: u8::MAX,
            },
            &mut stream_rng(1, 0, Stream::Chance),
            &mut trace,
        );
        assert_eq!(h.hand[sc as usize], 0);
        (h, trace.0.join("\n"))
    };
    let (h, text) = play("Second_Wind,Rain_Fire,Quick_Step");
    assert!(
        text.contains("Scoundrel plays Scavenge: draws 2 asset cards"),
        "{text}"
    );
    assert_eq!(h.deck_len, 1);
    assert_eq!(h.deck[0], card(&h, "Second Wind"));
    assert_eq!(h.hand[card(&h, "Rain Fire") as usize], 1);
    assert_eq!(h.hand[card(&h, "Quick Step") as usize], 1);
    let (h, text) = play("Rain_Fire");
    assert!(
        text.contains("Scoundrel plays Scavenge: draws 1 asset cards"),
        "{text}"
    );
    assert_eq!(h.deck_len, 0);
    assert_eq!(h.hand[card(&h, "Rain Fire") as usize], 1);
}

/// A shuffle (Assets: "return it to the deck and shuffle") is uniform: shuffling the same
/// five-card deck 500 times puts each card on top about a fifth of the time, the card that was
/// on top included, and keeps the same cards.
#[test]
fn a_shuffle_puts_each_card_on_top_about_equally_often() {
    let g = at(
        "sentries",
        "asset_deck Rain_Fire,Precise_Strike,Second_Wind,Quick_Step,Scavenge",
    );
    let mut rng = stream_rng(3, 0, Stream::Chance);
    let mut top = [0u32; 5];
    for _ in 0..500 {
        let mut h = g;
        h.shuffle_deck(&mut rng);
        let mut cards = h.deck[..5].to_vec();
        top[cards[4] as usize] += 1;
        cards.sort_unstable();
        assert_eq!(cards, vec![0, 1, 2, 3, 4]);
    }
    assert!(top.iter().all(|&n| (60..=140).contains(&n)), "{top:?}");
}

/// A strong prepare with a single card left in the asset deck (Prepare, case G3: draw two,
/// keep one) keeps that card: wits 3 and an empty hand make the target -3, a strong hit.
#[test]
fn a_strong_prepare_with_one_card_left_keeps_it() {
    let g = at(
        "sentries",
        "abilities strength=0,aim=1,wits=3,dodge=2\n\
         clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         asset_deck Quick_Step",
    );
    assert_eq!(g.prepare_target(), -3);
    let mut h = g;
    let mut trace = VecTrace::default();
    h.apply_traced(
        GodsAction::Prepare,
        &mut stream_rng(1, 0, Stream::Chance),
        &mut trace,
    );
    assert!(
        trace.0.iter().any(|l| l.contains("strong hit")),
        "{:?}",
        trace.0
    );
    assert_eq!(h.phase, Phase::Scoundrel);
    assert_eq!(h.deck_len, 0);
    assert_eq!(h.hand[card(&h, "Quick Step") as usize], 1);
    assert_eq!(h.hand_size(), 1);
}

/// A missed prepare returns a card of her choice (case G3), but with an empty hand there is
/// nothing to return and her phase goes on: with `rule_natural_ten_one` a double 1 misses even
/// the target -3 of wits 3 and no cards.
#[test]
fn a_missed_prepare_with_an_empty_hand_returns_nothing() {
    let g = at(
        "sentries",
        "abilities strength=0,aim=1,wits=3,dodge=2\n\
         rules natural_ten_one=1 shoot_in_combat=0\n\
         clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         asset_deck Quick_Step",
    );
    let seed = (0..5000)
        .find(|&s| {
            let mut r = stream_rng(s, 0, Stream::Chance);
            [d10(&mut r), d10(&mut r)] == [1, 1]
        })
        .expect("a double 1 among 5000 seeds");
    let mut h = g;
    let mut trace = VecTrace::default();
    h.apply_traced(
        GodsAction::Prepare,
        &mut stream_rng(seed, 0, Stream::Chance),
        &mut trace,
    );
    assert!(
        trace.0.iter().any(|l| l.contains(": miss")),
        "{:?}",
        trace.0
    );
    assert_eq!(
        (h.phase, h.actions_left, h.hand_size()),
        (Phase::Scoundrel, 1, 0)
    );
    assert!(legal(&h).contains(&GodsAction::End));
    // With a card in hand the same miss asks which card to return.
    let mut g = g;
    g.hand[card(&g, "Scavenge") as usize] = 1;
    let mut h = g;
    h.apply_traced(
        GodsAction::Prepare,
        &mut stream_rng(seed, 0, Stream::Chance),
        &mut NoTrace,
    );
    assert_eq!(h.phase, Phase::Return);
}

/// The cover goal (CONTENT.md, "Move candidates"): behind obstacle `j` on its far side from
/// the nearest fateling, its extent along that direction plus her base radius plus 0.1 inch
/// from its centre. The wall at x 10-12, y 4-10 (centre (11,7), half-width 1) with the nearest
/// guard due east at (16,7): the point (11 - 1 - 0.5 - 0.1, 7) = (9.4, 7).
#[test]
fn the_cover_goal_lies_just_behind_the_obstacle_from_the_nearest_fateling() {
    let g = pair("sentries", 0, "(14.00,2.00)", 1, "(16.00,7.00)");
    let p = g.goal_point(Goal::Cover(0)).unwrap();
    assert!(
        (p.x - 9.4).abs() < 1e-4 && (p.y - 7.0).abs() < 1e-4,
        "{p:?}"
    );
    // The circle of radius 1.5 at (17,3) with the guard due north at (17,7): (17, 3 - 2.1).
    let g = pair("sentries", 0, "(20.00,4.00)", 1, "(17.00,7.00)");
    let p = g.goal_point(Goal::Cover(3)).unwrap();
    assert!(
        (p.x - 17.0).abs() < 1e-4 && (p.y - 0.9).abs() < 1e-4,
        "{p:?}"
    );
}

/// The hide goal is the nearest node of her movement graph that no fateling senses: from the
/// middle of `sentries` it exists, and no guard has a line of sight to it and the blind
/// crawler neither sees it within 6 inches.
#[test]
fn the_hide_goal_is_out_of_every_fatelings_senses() {
    let g = pair("sentries", 0, "(20.00,12.00)", 1, "(16.00,12.00)");
    assert!(g.sees(0));
    let p = g.goal_point(Goal::Hide).expect("a hiding place");
    let obstacles = &g.enc().obstacles;
    for f in g.actives() {
        let fp = g.fatelings[f].at.pt();
        let near = edge_distance(p, 0.5, fp, g.kind(f).radius) <= 6.0 + 0.01;
        let blind = f == 2;
        assert!(
            !line_of_sight(p, fp, obstacles) || (blind && !near),
            "fateling {f} senses {p:?}"
        );
        assert!(!g.senses_at(f, p));
    }
    // Not the nearest node regardless of senses: her own place is seen by Guard 1.
    assert!(g.senses_at(0, g.scoundrel()));
}

/// `senses_at` (where a fateling would count her as in sight, for the hide goal) follows the
/// reactions' rules: keen senses count within 12 inches without sight and not beyond; a blind
/// fateling sees up to 6 inches (with the hundredth's tolerance: at exactly 6.01, which these
/// hundredths give in f32, it still sees) and not at 6.05 or 10; a fateling that is neither
/// sees along a clear line at any distance and not behind a wall, even 5.5 inches away.
#[test]
fn senses_at_follows_keen_senses_blindness_and_line_of_sight() {
    let pt = |s: &str| Pos::parse(s).unwrap().pt();
    // The keen wolf behind a pillar: 12 inches yes, 12.05 no.
    let g = pair("wolf_pack", 0, "(18.00,3.00)", 1, "(18.00,26.00)");
    assert!(!line_of_sight(
        pt("(18.00,12.90)"),
        pt("(18.00,26.00)"),
        &g.enc().obstacles
    ));
    assert!(g.senses_at(0, pt("(18.00,12.90)")));
    assert!(!g.senses_at(0, pt("(18.00,12.85)")));
    // The blind crawler in the open near the table's corner.
    let g = pair("sentries", 0, "(20.00,12.00)", 3, "(0.69,0.60)");
    let d = |p: Pt| edge_distance(p, 0.5, g.fatelings[2].at.pt(), 0.6);
    assert_eq!(d(pt("(7.80,0.60)")), 6.0f32 + 0.01);
    assert!(g.senses_at(2, pt("(7.80,0.60)")));
    assert!((d(pt("(7.79,0.60)")) - 6.0).abs() < 1e-5);
    assert!(g.senses_at(2, pt("(7.79,0.60)")));
    assert!(!g.senses_at(2, pt("(7.84,0.60)")));
    assert!(!g.senses_at(2, pt("(11.79,0.60)")));
    // A guard: in the open 4 inches and 20 inches away yes; behind the wall 5.5 away no.
    let g = pair("sentries", 0, "(20.00,12.00)", 1, "(14.00,17.00)");
    assert!(g.senses_at(0, pt("(18.00,17.00)")));
    assert!(g.senses_at(0, pt("(34.00,17.00)")));
    assert!(!line_of_sight(
        pt("(7.50,17.00)"),
        pt("(14.00,17.00)"),
        &g.enc().obstacles
    ));
    assert!(!g.senses_at(0, pt("(7.50,17.00)")));
}

/// The builtin content with `from` replaced by `to` (each must occur once), parsed as a content
/// file (`--set content=PATH`), for rules that only another content can reach.
fn content_with(from: &str, to: &str) -> &'static Content {
    assert_eq!(BUILTIN_TOML.matches(from).count(), 1, "{from}");
    let text = BUILTIN_TOML.replace(from, to);
    Box::leak(Box::new(content_file::parse(&text, "test").unwrap()))
}

/// A summon is stopped only by a base overlapping the place by more than the tolerance
/// (centres closer than the radii's sum minus 0.01): with Ghoul 1's place moved to (1,1) (a
/// content file may put it anywhere), the Scoundrel's centre exactly 0.99 inch from it in f32
/// does not stop it; 0.98 does.
#[test]
fn a_summon_is_stopped_only_within_the_overlap_tolerance() {
    let c = content_with(
        "at = [18.0, 33.0]\nreserve = true",
        "at = [1.0, 1.0]\nreserve = true",
    );
    let e = c.encounter_index("witch_coven").unwrap();
    let ghoul = c.encounters[e as usize]
        .fatelings
        .iter()
        .position(|f| f.name == "Ghoul 1")
        .unwrap();
    let summon = |me: &str| {
        let mut g = Gods::blank(c, e);
        g.at = Pos::parse(me).unwrap();
        assert_eq!(g.fatelings[ghoul].state, FState::Reserve);
        let ev = *g
            .enc()
            .events
            .iter()
            .find(|ev| ev.kind == EventKind::Summon(ghoul as u8))
            .unwrap();
        g.event(ev, &mut stream_rng(1, 0, Stream::Chance), &mut NoTrace);
        (
            g.scoundrel().dist(Pos::parse("(1.00,1.00)").unwrap().pt()),
            g.fatelings[ghoul].state,
        )
    };
    let (d, state) = summon("(1.99,1.00)");
    assert_eq!(d, 0.5f32 + 0.5 - 0.01);
    assert_eq!(state, FState::Active);
    let (d, state) = summon("(1.98,1.00)");
    assert!(d < 0.5f32 + 0.5 - 0.01);
    assert_eq!(state, FState::Reserve);
}

/// `Gods::sees` for a fateling whose only aspect is blind (a content file may give one just
/// that): in clear sight 10 inches away it does not see her; within 6 it does.
#[test]
fn sees_for_a_fateling_that_is_only_blind() {
    let c = content_with("aspects = [\"blind\", \"rush\"]", "aspects = [\"blind\"]");
    let e = c.encounter_index("sentries").unwrap();
    let mut g = Gods::blank(c, e);
    g.fatelings[2].at = Pos::parse("(31.00,20.00)").unwrap();
    g.at = Pos::parse("(19.90,20.00)").unwrap();
    assert!(g.line_of_sight(2));
    assert!((g.distance(2) - 10.0).abs() < 1e-5);
    assert!(!g.sees(2));
    g.at = Pos::parse("(23.90,20.00)").unwrap();
    assert!(g.sees(2));
}

/// `Gods::can_shoot` (Shoot: on the table, in line of sight, within 24 inches, and not while
/// in combat unless `rule_shoot_in_combat`) agrees with the shots `legal` offers: yes 4 inches
/// away in the open; no with another guard within 2 inches of her, yes then under the rule; no
/// behind a wall, beyond 24 inches or at a slain guard.
#[test]
fn can_shoot_follows_sight_range_combat_and_the_rule() {
    let check = |g: &Gods, f: usize, want: bool| {
        assert_eq!(g.can_shoot(f), want, "{}", g.to_position());
        assert_eq!(legal(g).contains(&GodsAction::Shoot(f as u8)), want);
    };
    let g = pair("sentries", 0, "(20.00,12.00)", 1, "(16.00,12.00)");
    assert!(!g.in_combat());
    check(&g, 0, true);
    let close = "fateling 2 state=active at=(20.00,13.50) wounds=0 activated=0 patrol=1";
    let base = "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
                scoundrel at=(20.00,12.00)\n\
                fateling 1 state=active at=(16.00,12.00) wounds=0 activated=0 patrol=1";
    let g = at("sentries", &format!("{base}\n{close}"));
    assert!(g.in_combat() && g.line_of_sight(0));
    check(&g, 0, false);
    let g = at(
        "sentries",
        &format!("{base}\n{close}\nrules natural_ten_one=0 shoot_in_combat=1"),
    );
    check(&g, 0, true);
    let g = pair("sentries", 0, "(3.00,7.00)", 1, "(16.00,12.00)");
    assert!(!g.line_of_sight(0) && !g.in_combat());
    check(&g, 0, false);
    let g = pair("sentries", 0, "(3.00,23.00)", 2, "(28.05,23.00)");
    assert!(g.line_of_sight(1));
    check(&g, 1, false);
    let mut g = pair("sentries", 0, "(20.00,12.00)", 1, "(16.00,12.00)");
    g.fatelings[0].state = FState::Slain;
    check(&g, 0, false);
}

/// The leaf evaluation's features (`Game::features`, names in `sololab::games::gods::FEATURES`)
/// read the state they name: wound cards left before she perishes, face-up wounds, fatelings on
/// the table, their wounds left, the named target's wounds left (the encounter's win: slay all,
/// slay one while it is on the table, else 0), the edge distance to a Reach objective, the
/// fatelings whose reaction is an attack or a shot (threats) and those that also just see her,
/// the hand, the rounds left, and won / lost.
#[test]
fn the_features_read_wounds_targets_objectives_threats_hand_rounds_and_the_result() {
    let f = |g: &Gods| {
        let mut out = [0.0; 12];
        g.features(&mut out);
        out
    };
    // lone_brute (slay all): the Brute (6 wounds) with 2 taken, 15 inches away behind the wall
    // (14-18, 10-11), patrolling.
    let mut g = at(
        "lone_brute",
        "clock round=3 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         scoundrel at=(16.00,5.00)\n\
         fateling 1 state=active at=(16.00,20.00) wounds=2 activated=0 patrol=1\n\
         hand Rain_Fire=1,Second_Wind=2\n\
         wounds drawn=3 face_up=1,3",
    );
    assert_eq!(g.reaction(0), Reaction::Patrol);
    let v = f(&g);
    assert_eq!(v[0], 7.0, "10 to perish, 3 drawn");
    assert_eq!(v[1], 2.0, "face up: slots 1 and 3");
    assert_eq!(v[2], 1.0, "one fateling on the table");
    assert_eq!(v[3], 4.0, "6 wounds, 2 taken");
    assert_eq!(v[4], 4.0, "slay all: the target's wounds are every foe's");
    assert_eq!(v[5], 0.0, "no objective");
    assert_eq!((v[6], v[7]), (0.0, 0.0), "not sensed");
    assert_eq!(v[8], 3.0, "three cards in hand");
    assert_eq!(v[9], 7.0, "round 3 of 10");
    assert_eq!((v[10], v[11]), (0.0, 0.0));
    // Within reach it attacks (a threat, and it sees her); in the open past the wall's end it
    // only sees her.
    g.fatelings[0].at = Pos::from_pt(Pt::new(16.0, 6.6));
    assert_eq!(g.reaction(0), Reaction::Attack);
    assert_eq!(f(&g)[6..8], [1.0, 1.0]);
    g.fatelings[0].at = Pos::from_pt(Pt::new(12.0, 10.0));
    assert_eq!(g.reaction(0), Reaction::Sight);
    assert_eq!(f(&g)[6..8], [0.0, 1.0]);
    // The result: won, then lost.
    g.result = 1;
    assert_eq!(f(&g)[10..12], [1.0, 0.0]);
    g.result = 2;
    assert_eq!(f(&g)[10..12], [0.0, 1.0]);

    // sentries (reach the Relic at (33, 12), radius 1): the edge distance from her base (0.5).
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\n\
         scoundrel at=(28.00,12.00)",
    );
    let v = f(&g);
    assert!(
        (v[5] - 3.5).abs() < 1e-5,
        "5 between centres - 1 - 0.5: {}",
        v[5]
    );
    assert_eq!(v[4], 0.0, "reach: no target");

    // witch_coven (slay the Witch): the Witch's wounds left while she is on the table, 0 once
    // she is not; the other fatelings' wounds count only among the foes'.
    let g = at("witch_coven", "");
    let sololab::games::gods::content::Win::Slay(w) = g.enc().win else {
        panic!("witch_coven is won by slaying the Witch")
    };
    let w = w as usize;
    let mut g = g;
    g.fatelings[w].wounds = 1;
    let v = f(&g);
    let witch = g.kind(w).wounds as f64;
    assert_eq!(v[4], witch - 1.0);
    let foes: f64 = g
        .actives()
        .map(|x| (g.kind(x).wounds - g.fatelings[x].wounds) as f64)
        .sum();
    assert_eq!(v[3], foes);
    assert!(v[3] > v[4], "the guards and archers count too");
    g.fatelings[w].state = FState::Slain;
    assert_eq!(f(&g)[4], 0.0, "the Witch is off the table");
}

/// The per-game metrics (`Game::metrics`, names in `sololab::games::gods::METRICS`) and the
/// turn count (`Game::turns`: rounds) are the state's own tallies at the end of a game.
#[test]
fn the_metrics_and_turns_are_the_games_tallies() {
    let setup = Gods::resolve_setup(&sololab::SetupValues::new()).unwrap();
    let mut checked = 0;
    for seed in 0..40 {
        let mut rng = stream_rng(seed, 0, Stream::Setup);
        let mut g = Gods::new_game(&setup, &mut rng);
        let mut buf = Vec::new();
        let mut k = 0u64;
        while g.result == 0 {
            g.legal_actions(&mut buf);
            // A fixed, varied pick (not a policy): every kind of action gets played.
            let a = buf[(k as usize * 7 + 3) % buf.len()];
            k += 1;
            g.apply(a, &mut rng);
        }
        let mut m = [0i64; 9];
        g.metrics(&mut m);
        let t = &g.tally;
        assert_eq!(
            m,
            [
                (g.result == 1) as i64,
                g.wounds_drawn as i64,
                g.face_up_count() as i64,
                t.slain as i64,
                t.damage as i64,
                t.attacks as i64,
                t.shots as i64,
                t.prepares as i64,
                t.assets as i64,
            ]
        );
        assert_eq!(g.turns(), g.round as u32);
        assert!(g.round >= 1);
        checked += (m[0] == 0 && m[1] > 0) as u32;
    }
    assert!(checked > 0, "some game was lost with wounds drawn");
}

/// Determinization re-samples only what the Scoundrel cannot see (Game::determinize): the
/// asset deck's order and the order of the wound cards not yet drawn; the drawn wounds (and
/// their faces), the hand and the multiset of each deck stay. Every undrawn wound card comes
/// next about equally often, the one already next included. `conceal` sorts the same two runs.
#[test]
fn determinize_reshuffles_only_the_unseen_cards_uniformly_and_conceal_sorts_them() {
    let setup = Gods::resolve_setup(&sololab::SetupValues::new()).unwrap();
    let mut rng = stream_rng(3, 0, Stream::Setup);
    let mut g = Gods::new_game(&setup, &mut rng);
    g.draw_wound(true, &mut NoTrace);
    g.draw_wound(false, &mut NoTrace);
    let lo = g.wounds_drawn as usize;
    let n = g.content.wounds.len();
    assert!(n - lo >= 4 && g.deck_len >= 4);
    let sorted = |s: &[u8]| {
        let mut v = s.to_vec();
        v.sort_unstable();
        v
    };
    // How often each wound card (by id: the deck holds some cards twice) comes next.
    let mut next = [0u32; 256];
    let mut deck_moved = false;
    let mut d = stream_rng(3, 0, Stream::Policy);
    let trials = 4000;
    for _ in 0..trials {
        let mut h = g;
        h.determinize(&mut d);
        assert_eq!(h.wound_deck[..lo], g.wound_deck[..lo], "drawn wounds stay");
        assert_eq!(h.face_up, g.face_up);
        assert_eq!(h.hand, g.hand);
        assert_eq!(
            h.wound_deck[n..],
            g.wound_deck[n..],
            "no slot past the deck"
        );
        assert_eq!(sorted(&h.wound_deck[lo..n]), sorted(&g.wound_deck[lo..n]));
        let k = g.deck_len as usize;
        assert_eq!(sorted(&h.deck[..k]), sorted(&g.deck[..k]));
        deck_moved |= h.deck[..k] != g.deck[..k];
        next[h.wound_deck[lo] as usize] += 1;
    }
    assert!(deck_moved, "the asset deck is re-shuffled");
    // Each undrawn card comes next in proportion to its copies among the n - lo undrawn
    // (binomial: within 6 standard deviations), and no other card does.
    for (id, &c) in next.iter().enumerate() {
        let copies = g.wound_deck[lo..n]
            .iter()
            .filter(|&&x| x as usize == id)
            .count();
        let p = copies as f64 / (n - lo) as f64;
        let (mean, sd) = (trials as f64 * p, (trials as f64 * p * (1.0 - p)).sqrt());
        assert!(
            (c as f64 - mean).abs() <= 6.0 * sd,
            "wound card {id} ({copies} undrawn) came next {c} times of {trials} (about {mean:.0})"
        );
    }
    let mut h = g;
    h.conceal();
    assert_eq!(h.wound_deck[..lo], g.wound_deck[..lo]);
    assert_eq!(h.wound_deck[lo..n], sorted(&g.wound_deck[lo..n])[..]);
    let k = g.deck_len as usize;
    assert_eq!(h.deck[..k], sorted(&g.deck[..k])[..]);
}

/// An action's text (`Game::action_text`, the trace and `sololab play`) is the rules' own
/// description of it.
#[test]
fn the_action_text_is_the_rules_description() {
    let g = pair("lone_brute", 0, "(12.00,18.50)", 1, "(12.00,20.00)");
    let acts = legal(&g);
    assert!(acts.len() > 5);
    for a in acts {
        let t = g.action_text(a);
        assert_eq!(t, g.describe(a));
        assert!(t.len() > 3, "{t}");
    }
}

/// Setting up a game shuffles the wound deck uniformly (Setup: "shuffle the wound deck"):
/// over 6,000 new games, each wound card is the first in the deck in proportion to its copies.
#[test]
fn a_new_game_shuffles_the_wound_deck_uniformly() {
    let setup = Gods::resolve_setup(&sololab::SetupValues::new()).unwrap();
    let trials = 6000u64;
    let mut first = [0u32; 256];
    let mut deck = Vec::new();
    for seed in 0..trials {
        let mut rng = stream_rng(seed, 0, Stream::Setup);
        let g = Gods::new_game(&setup, &mut rng);
        first[g.wound_deck[0] as usize] += 1;
        if deck.is_empty() {
            deck = g.wound_deck[..g.content.wounds.len()].to_vec();
        }
    }
    let n = deck.len() as f64;
    for (id, &c) in first.iter().enumerate() {
        let copies = deck.iter().filter(|&&x| x as usize == id).count() as f64;
        let p = copies / n;
        let (mean, sd) = (trials as f64 * p, (trials as f64 * p * (1.0 - p)).sqrt());
        assert!(
            (c as f64 - mean).abs() <= 5.0 * sd,
            "wound card {id} ({copies} of {n}) came first {c} times of {trials} (about {mean:.0})"
        );
    }
}

/// `Gods::MAX_DECISIONS` (220) bounds every game: a game lasts at most 30 rounds, a Scoundrel
/// phase has 2 actions plus one per Quick Step, an action is at most 2 decisions (the action
/// and its pending choice: keep, return or re-roll), and the 20 asset cards are played at most
/// once each, so no game exceeds 30 × 2 × 2 + 20 × 3 = 180. The longest games we can
/// construct: lone_brute walled in (no route, no sight: she is never attacked), 30 rounds, a
/// deck of 20 Quick Steps, and a player who plays every asset at once and prepares with every
/// action (each prepare's strong hit or miss is a pending choice). Over 200 seeds every game
/// ends at the round limit, and the longest takes 133 decisions, under the cap (a cap below it
/// would stop a legal game as a bug).
/// The longest games built from the built-in content with the deck all Quick Steps (each played
/// adds an action) and a Scoundrel who plays every asset and prepares (a pending choice of the
/// card to keep or return whenever the test does not end weak): the walled-in brute cannot reach
/// her, so every game lasts the 30 rounds. With the built-in 2 actions a round the longest of
/// 200 games has 133 decisions; with a content file's most, 4 actions a round, it has more, and
/// both stay under `Game::MAX_DECISIONS`, the bound over every content file and position.
#[test]
fn the_longest_games_stay_under_the_decision_cap() {
    let longest = |actions: &str| {
        let mut text = BUILTIN_TOML.to_string();
        for (from, to) in [
            (
                "round_limit = 10\nlimit_cause = \"time_ran_out\"\nwin = \"slay_all\"\nobstacles = [{ circle = [7.0, 11.0, 1.5] }, { rect = [14.0, 10.0, 18.0, 11.0] }]\n\n[[encounter.fateling]]\nkind = \"Brute\"\nat = [12.0, 20.0]\npatrol = [[5.0, 20.0], [19.0, 20.0]]",
                "round_limit = 30\nlimit_cause = \"time_ran_out\"\nwin = \"slay_all\"\nobstacles = [{ rect = [9.0, 17.0, 15.0, 17.5] }, { rect = [9.0, 22.5, 15.0, 23.0] }, { rect = [9.0, 17.0, 9.5, 23.0] }, { rect = [14.5, 17.0, 15.0, 23.0] }]\n\n[[encounter.fateling]]\nkind = \"Brute\"\nat = [12.0, 20.0]",
            ),
            (
                "cards = { \"Rain Fire\" = 4, \"Precise Strike\" = 4, \"Second Wind\" = 4, \"Quick Step\" = 4, \"Scavenge\" = 4 }",
                "cards = { \"Quick Step\" = 20 }",
            ),
            ("\nactions = 2\n", actions),
        ] {
            assert_eq!(text.matches(from).count(), 1, "{from}");
            text = text.replace(from, to);
        }
        let c: &'static Content = Box::leak(Box::new(content_file::parse(&text, "test").unwrap()));
        let setup = sololab::games::gods::GodsSetup {
            content: c,
            encounter: c.encounter_index("lone_brute").unwrap(),
            abilities: [0, 0, 1, 0],
            deck: c.deck_index("balanced").unwrap(),
            natural: false,
            shoot_in_combat: false,
        };
        let mut longest = 0;
        let mut v = Vec::new();
        for seed in 0..200u64 {
            let mut g = Gods::new_game(&setup, &mut stream_rng(seed, 0, Stream::Setup));
            let mut rng = stream_rng(seed, 0, Stream::Chance);
            while g.outcome().is_none() {
                g.legal(&mut v);
                let pick = v
                    .iter()
                    .copied()
                    .find(|a| matches!(a, GodsAction::Asset { .. }))
                    .or_else(|| v.iter().copied().find(|a| *a == GodsAction::Prepare))
                    .unwrap_or(v[0]);
                g.play(pick, &mut rng, &mut NoTrace);
            }
            assert_eq!(
                g.outcome(),
                Some(Outcome::Lost(1)),
                "time_ran_out, seed {seed}"
            );
            assert_eq!(g.round, 30);
            longest = longest.max(u32::from(g.decisions));
        }
        longest
    };
    assert_eq!(longest("\nactions = 2\n"), 133);
    let four = longest("\nactions = 4\n");
    assert!(four > 185, "{four}");
    assert!(four < Gods::MAX_DECISIONS, "{four}");
}

/// Two states are equal exactly when every field the game reads is (`state.rs`, `PartialEq`):
/// a copy differing in any one field compares unequal, and cards past the asset deck's length
/// (not in the deck) do not count.
#[test]
fn states_differ_when_any_field_differs() {
    use sololab::games::gods::state::Pending;
    let setup = sololab::games::gods::GodsSetup::resolve(&Default::default()).unwrap();
    let g = Gods::new_game(&setup, &mut stream_rng(1, 0, Stream::Setup));
    assert_eq!(g, g);
    let other: &'static Content = Box::leak(Box::new(
        content_file::parse(BUILTIN_TOML, "other").unwrap(),
    ));
    type Edit = Box<dyn Fn(&mut Gods)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("content", Box::new(move |s| s.content = other)),
        ("encounter", Box::new(|s| s.encounter += 1)),
        ("abilities", Box::new(|s| s.abilities[0] += 1)),
        ("natural", Box::new(|s| s.natural = !s.natural)),
        (
            "shoot_in_combat",
            Box::new(|s| s.shoot_in_combat = !s.shoot_in_combat),
        ),
        (
            "at",
            Box::new(|s| s.at = Pos::parse("(1.00,1.00)").unwrap()),
        ),
        ("fatelings", Box::new(|s| s.fatelings[0].wounds += 1)),
        ("deck", Box::new(|s| s.deck.swap(0, 1))),
        ("deck_len", Box::new(|s| s.deck_len -= 1)),
        ("hand", Box::new(|s| s.hand[0] += 1)),
        ("wound_deck", Box::new(|s| s.wound_deck.swap(0, 2))),
        ("wounds_drawn", Box::new(|s| s.wounds_drawn += 1)),
        ("face_up", Box::new(|s| s.face_up ^= 1)),
        ("round", Box::new(|s| s.round += 1)),
        ("phase", Box::new(|s| s.phase = Phase::Keep)),
        ("actions_left", Box::new(|s| s.actions_left -= 1)),
        ("assets_used", Box::new(|s| s.assets_used += 1)),
        ("noise", Box::new(|s| s.noise = !s.noise)),
        (
            "pending",
            Box::new(|s| {
                s.pending = Pending {
                    number: 5,
                    ..s.pending
                }
            }),
        ),
        ("result", Box::new(|s| s.result = 1)),
        ("decisions", Box::new(|s| s.decisions += 1)),
        ("tally", Box::new(|s| s.tally.attacks += 1)),
    ];
    for (field, edit) in &edits {
        let mut h = g;
        edit(&mut h);
        assert_ne!(g, h, "{field}");
        assert_eq!(h, h, "{field}");
    }
    // A card past the deck's length is not in the deck.
    let mut h = g;
    let n = h.deck_len as usize;
    assert!(n < h.deck.len());
    h.deck[n] = h.deck[n].wrapping_add(1);
    assert_eq!(g, h);
}

/// The hide goal is, by definition, the nearest node of her movement graph that no fateling
/// senses, the first in node order among equally near ones (`goal_point` tries nodes nearest
/// first and stops at the answer): the same point as that definition computed plainly, in every
/// Scoundrel-phase state of 30 games on every shipped encounter, and at least once `None`
/// (every node sensed) or a node other than the nearest one.
#[test]
fn the_hide_goal_is_the_nearest_unsensed_node_in_every_state_of_play() {
    let content = builtin();
    let (mut checked, mut not_nearest) = (0, 0);
    for enc in &content.encounters {
        let mut values = sololab::SetupValues::new();
        values.insert(
            "encounter".into(),
            sololab::AxisValue::Name(enc.name.clone()),
        );
        let setup = Gods::resolve_setup(&values).unwrap();
        for seed in 0..30 {
            let mut rng = stream_rng(seed, 0, Stream::Setup);
            let mut g = Gods::new_game(&setup, &mut rng);
            let mut buf = Vec::new();
            let mut k = 0usize;
            while g.result == 0 {
                if g.phase == Phase::Scoundrel {
                    let me = g.scoundrel();
                    let nodes = &g.scoundrel_nav().nodes;
                    let want = nodes
                        .iter()
                        .filter(|&&p| !g.actives().any(|f| g.senses_at(f, p)))
                        .min_by(|a, b| me.dist(**a).total_cmp(&me.dist(**b)))
                        .copied();
                    let nearest = nodes
                        .iter()
                        .min_by(|a, b| me.dist(**a).total_cmp(&me.dist(**b)))
                        .copied();
                    assert_eq!(g.goal_point(Goal::Hide), want, "{} seed {seed}", enc.name);
                    checked += 1;
                    not_nearest += usize::from(want != nearest);
                }
                g.legal_actions(&mut buf);
                let a = buf[(k * 7 + 3) % buf.len()];
                k += 1;
                g.apply(a, &mut rng);
            }
        }
    }
    assert!(checked > 1000, "{checked} states checked");
    assert!(
        not_nearest > 100,
        "{not_nearest} states hid away from the nearest node"
    );
}
