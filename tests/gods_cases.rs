//! I Bury the Gods: the rulebook cases G1-G6 (`../shared/cases/gods.md`) and the rules of
//! issue 14, each through a position text, each asserting the case's values.
//!
//! Where a rule rolls dice, the test plays the action from many chance seeds and picks a seed
//! whose trace shows the dice it needs, then asserts what the rule makes of them.

mod common;

use common::legal;

use sololab::games::gods::content::builtin;
use sololab::games::gods::geometry::Pos;
use sololab::games::gods::rules::{Goal, GodsAction, Hit, judge};
use sololab::games::gods::state::{FState, Phase};
use sololab::games::gods::{Gods, ai::Reaction};
use sololab::{Game, GameRng, Outcome, SetupValues, Stream, VecTrace, stream_rng};

/// A position on encounter `enc`: the encounter's start, with `lines` replacing the lines of the
/// same key (`fateling N` by index).
fn at(enc: &str, lines: &str) -> Gods {
    let c = builtin();
    let base = Gods::blank(c, c.encounter_index(enc).unwrap());
    let key = common::line_key(&["fateling"]);
    let g: Gods = common::parse(&common::overlay(&base.to_position(), lines, key));
    common::assert_round_trip(&g);
    g
}

fn rng(seed: u64) -> GameRng {
    stream_rng(seed, 0, Stream::Chance)
}

/// Plays `a` from `g` under chance seeds 0.. until `want` holds for the result and its trace.
fn find(g: &Gods, a: GodsAction, want: impl Fn(&Gods, &str) -> bool) -> (Gods, String) {
    for seed in 0..5000 {
        let mut h = *g;
        let mut t = VecTrace::default();
        h.apply_traced(a, &mut rng(seed), &mut t);
        let text = t.0.join("\n");
        if want(&h, &text) {
            return (h, text);
        }
    }
    panic!("no seed gives the wanted result for {a:?}");
}

// ---------------------------------------------------------------------------------------------
// G1: a test

#[test]
fn g1_each_die_against_the_target_strong_weak_miss() {
    assert_eq!(judge([7, 3], 6, false), Hit::Weak);
    assert_eq!(judge([6, 6], 6, false), Hit::Strong);
    assert_eq!(judge([5, 2], 6, false), Hit::Miss);
    // rule_natural_ten_one: a 10 always meets, a 1 never does.
    assert_eq!(judge([10, 1], 11, true), Hit::Weak);
    assert_eq!(judge([10, 1], 11, false), Hit::Miss);
    assert_eq!(judge([1, 1], 0, true), Hit::Miss);
    assert_eq!(judge([1, 1], 0, false), Hit::Strong);
}

#[test]
fn g1_target_is_the_base_minus_the_ability_plus_conditions() {
    // Brute defense 7, strength 3: target 4; a face-up Torn Muscle (-1 strength) makes it 5.
    let g = at("lone_brute", "scoundrel at=(12.00,17.50)");
    assert_eq!(g.attack_target(0), 4);
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,17.50)\nwound_deck Torn_Muscle,Bruise,Bruise,Bruise,Bruise,Bruise,Torn_Muscle,Blurred_Vision,Blurred_Vision,Concussion,Concussion,Cracked_Ribs,Cracked_Ribs,Twisted_Ankle,Twisted_Ankle\nwounds drawn=1 face_up=1",
    );
    assert_eq!(g.attack_target(0), 5);
    // The same card face down changes nothing.
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,17.50)\nwound_deck Torn_Muscle,Bruise,Bruise,Bruise,Bruise,Bruise,Torn_Muscle,Blurred_Vision,Blurred_Vision,Concussion,Concussion,Cracked_Ribs,Cracked_Ribs,Twisted_Ankle,Twisted_Ankle\nwounds drawn=1 face_up=-",
    );
    assert_eq!(g.attack_target(0), 4);
}

// ---------------------------------------------------------------------------------------------
// G2: attacking and shooting

#[test]
fn g2_attack_within_one_inch_deals_two_on_strong_one_on_weak() {
    // Scoundrel (r 0.5) and Brute (r 1.0) 0.5 inch apart edge to edge.
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,18.00)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    assert!(legal(&g).contains(&GodsAction::Attack(0)));
    let (s, t) = find(&g, GodsAction::Attack(0), |_, t| t.contains(": strong hit"));
    assert_eq!(s.fatelings[0].wounds, 2, "{t}");
    assert!(t.contains("target 4 (defense 7 - strength 3)"), "{t}");
    let (w, t) = find(&g, GodsAction::Attack(0), |_, t| t.contains(": weak hit"));
    assert_eq!(w.fatelings[0].wounds, 1, "{t}");
    let (m, t) = find(&g, GodsAction::Attack(0), |_, t| {
        t.contains("  dice") && t.contains(": miss")
    });
    assert_eq!(m.fatelings[0].wounds, 0, "{t}");
}

#[test]
fn g2_a_fateling_perishes_at_its_wounds_score() {
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,18.00)\nfateling 1 state=active at=(12.00,20.00) wounds=5 activated=0 patrol=1",
    );
    let (s, t) = find(&g, GodsAction::Attack(0), |_, t| t.contains(": weak hit"));
    assert_eq!(s.fatelings[0].state, FState::Slain, "{t}");
    // The only fateling slain: the lone brute encounter (slay_all) is won.
    assert_eq!(s.outcome(), Some(Outcome::Won));
}

#[test]
fn g2_shoot_modifiers_optimal_range_large_target_and_cover() {
    // 16.5 inches apart, clear line: +1 beyond the optimal 8 inches, -1 large target.
    let g = at("lone_brute", "scoundrel at=(12.00,2.00)");
    assert_eq!(g.shoot_target(0), (7 - 2 + 1 - 1, true, true, false));
    // Within 1 inch above the wall [14,10]-[18,11], seen from low on the right: the wall hides
    // the lower part of its base: +1.
    let g = at(
        "lone_brute",
        "scoundrel at=(22.00,10.20)\nfateling 1 state=active at=(16.00,12.30) wounds=0 activated=0 patrol=1",
    );
    assert!(g.line_of_sight(0));
    assert_eq!(g.shoot_target(0), (7 - 2 - 1 + 1, false, true, true));
    // No line of sight, no shot: behind the wall.
    let g = at(
        "lone_brute",
        "scoundrel at=(16.00,6.00)\nfateling 1 state=active at=(16.00,14.00) wounds=0 activated=0 patrol=1",
    );
    assert!(!g.line_of_sight(0));
    assert!(!legal(&g).iter().any(|a| matches!(a, GodsAction::Shoot(_))));
}

#[test]
fn g2_a_shot_deals_damage_by_the_aim_test() {
    let g = at("lone_brute", "scoundrel at=(12.00,2.00)");
    let (s, t) = find(&g, GodsAction::Shoot(0), |_, t| t.contains(": strong hit"));
    assert_eq!(s.fatelings[0].wounds, 2, "{t}");
    assert!(
        t.contains("target 5 (defense 7 - aim 2 +1 beyond optimal range -1 large target)"),
        "{t}"
    );
}

#[test]
fn no_shooting_in_combat_unless_the_rule_axis_allows_it() {
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,17.00)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    assert!(g.in_combat());
    assert!(!legal(&g).contains(&GodsAction::Shoot(0)));
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,17.00)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1\nrules natural_ten_one=0 shoot_in_combat=1",
    );
    assert!(legal(&g).contains(&GodsAction::Shoot(0)));
}

// ---------------------------------------------------------------------------------------------
// G3: preparing

const DECK: &str = "asset_deck Scavenge,Quick_Step,Second_Wind,Rain_Fire";

#[test]
fn g3_prepare_target_is_the_cards_in_hand_minus_wits() {
    let g = at(
        "lone_brute",
        &format!("{DECK}\nhand Rain_Fire=2,Quick_Step=1"),
    );
    assert_eq!(g.prepare_target(), 3 - 1);
}

#[test]
fn g3_strong_draws_two_keeps_one_returns_the_other() {
    let g = at(
        "lone_brute",
        &format!("{DECK}\nhand Rain_Fire=2,Quick_Step=1"),
    );
    let (s, t) = find(&g, GodsAction::Prepare, |_, t| t.contains(": strong hit"));
    assert_eq!(s.phase, Phase::Keep, "{t}");
    assert_eq!(s.deck_len, 2);
    // The two top cards: Rain Fire (index 0) and Second Wind (index 2).
    assert_eq!(s.pending.dice, [0, 2]);
    assert_eq!(legal(&s), vec![GodsAction::Keep(0), GodsAction::Keep(1)]);
    let mut k = s;
    k.apply(GodsAction::Keep(1), &mut rng(0));
    assert_eq!(k.hand_size(), 4);
    assert_eq!(k.hand[2], 1, "kept Second Wind");
    assert_eq!(k.deck_len, 3, "Rain Fire went back");
    assert_eq!(k.deck[..3].iter().filter(|&&c| c == 0).count(), 1);
    assert_eq!(k.phase, Phase::Scoundrel);
}

#[test]
fn g3_weak_draws_one_and_miss_returns_a_card_of_the_players_choice() {
    let g = at(
        "lone_brute",
        &format!("{DECK}\nhand Rain_Fire=2,Quick_Step=1"),
    );
    let (w, t) = find(&g, GodsAction::Prepare, |_, t| t.contains(": weak hit"));
    assert_eq!((w.hand_size(), w.deck_len), (4, 3), "{t}");
    assert_eq!(w.hand[0], 3, "drew the top card, Rain Fire");
    let (m, t) = find(&g, GodsAction::Prepare, |_, t| t.contains(": miss"));
    assert_eq!(m.phase, Phase::Return, "{t}");
    assert_eq!(
        legal(&m),
        vec![GodsAction::Return(0), GodsAction::Return(3)]
    );
    let mut r = m;
    r.apply(GodsAction::Return(3), &mut rng(0));
    assert_eq!((r.hand[3], r.hand_size(), r.deck_len), (0, 2, 5));
}

// ---------------------------------------------------------------------------------------------
// G4: a fateling attacks or shoots

/// Guard 1 of the sentries in base contact with the Scoundrel; the Scoundrel ends her phase.
fn guard_in_contact(extra: &str) -> Gods {
    at(
        "sentries",
        &format!(
            "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(16.00,5.00)\nfateling 1 state=active at=(16.00,6.00) wounds=0 activated=0 patrol=1\n{extra}"
        ),
    )
}

#[test]
fn g4_dodge_test_weak_hit_draws_a_wound_face_down_miss_face_up() {
    let g = guard_in_contact("");
    assert_eq!(g.reaction(0), Reaction::Attack);
    let (w, t) = find(&g, GodsAction::End, |_, t| {
        t.contains("Guard 1 action 1")
            && t.contains("dodge test, target 5 (5 - dodge 0)")
            && t.contains(": weak hit")
    });
    assert_eq!((w.wounds_drawn, w.face_up), (1, 0), "{t}");
    let (m, t) = find(&g, GodsAction::End, |_, t| {
        t.contains("Guard 1 action 1")
            && t.lines()
                .any(|l| l.contains("dodge test") && l.ends_with(": miss"))
    });
    assert_eq!((m.wounds_drawn, m.face_up), (1, 1), "{t}");
    let (s, t) = find(&g, GodsAction::End, |_, t| {
        t.contains("dodge test") && t.contains(": strong hit")
    });
    assert_eq!(s.wounds_drawn, 0, "{t}");
}

#[test]
fn g4_an_attack_ends_the_activation_even_as_the_first_action() {
    let g = guard_in_contact("");
    let (_, t) = find(&g, GodsAction::End, |_, _| true);
    assert!(t.contains("Guard 1 action 1: within reach: attack"), "{t}");
    assert!(!t.contains("Guard 1 action 2"), "{t}");
}

#[test]
fn relentless_attacks_twice_and_volley_shoots_twice() {
    // The Brute is relentless: an attack as its first action does not end the activation.
    let g = at(
        "lone_brute",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(12.00,18.00)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    let (_, t) = find(&g, GodsAction::End, |h, _| h.wounds_drawn < 10);
    assert!(
        t.contains("Brute action 1: within reach: attack")
            && t.contains("Brute action 2: within reach: attack"),
        "{t}"
    );
    // A harpy (ranged 10, volley) in the open 6 inches away shoots twice; an archer once.
    let g = at(
        "haunted_ruins",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(3.00,4.00)\nfateling 1 state=active at=(27.00,27.00) wounds=0 activated=0 patrol=1\nfateling 2 state=active at=(3.00,11.00) wounds=0 activated=0 patrol=1\nfateling 3 state=slain at=(26.00,28.00) wounds=2 activated=0 patrol=1",
    );
    assert_eq!(g.reaction(1), Reaction::Shoot);
    let (_, t) = find(&g, GodsAction::End, |_, _| true);
    assert!(
        t.contains("Harpy 1 action 1: in sight and range: shoot")
            && t.contains("Harpy 1 action 2: in sight and range: shoot"),
        "{t}"
    );
    let g = at(
        "witch_coven",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(19.00,16.50)",
    );
    assert_eq!(g.reaction(3), Reaction::Shoot);
    let (_, t) = find(&g, GodsAction::End, |h, _| !h.over());
    assert!(
        t.contains("Archer 1 action 1: in sight and range: shoot"),
        "{t}"
    );
    assert!(!t.contains("Archer 1 action 2"), "{t}");
}

#[test]
fn g4_the_tenth_wound_card_slays_the_scoundrel() {
    let g = guard_in_contact("wounds drawn=9 face_up=-");
    let (l, t) = find(&g, GodsAction::End, |_, t| t.contains(": weak hit"));
    assert_eq!(l.wounds_drawn, 10, "{t}");
    assert_eq!(l.outcome(), Some(Outcome::Lost(0)));
    assert_eq!(Gods::LOSS_CAUSES[0], "scoundrel_slain");
    assert!(legal(&l).is_empty());
}

// ---------------------------------------------------------------------------------------------
// G5: the round

#[test]
fn g5_rush_fatelings_act_before_the_scoundrel_and_nobody_twice() {
    let mut values = SetupValues::new();
    values.insert(
        "encounter".into(),
        sololab::AxisValue::Name("wolf_pack".into()),
    );
    let setup = Gods::resolve_setup(&values).unwrap();
    let g = Gods::new_game(&setup, &mut stream_rng(3, 0, Stream::Setup));
    // Round 1's fate rush phase has run: the three wolves (rush, keen) have moved and are
    // marked as activated before the Scoundrel's first decision.
    assert_eq!(g.round, 1);
    for f in 0..3 {
        assert!(g.fatelings[f].activated, "wolf {f}");
    }
    assert!((0..3).any(|f| g.fatelings[f].at != setup.content.encounters[2].fatelings[f].start));
    // Ending her phase: the fate phase activates nobody (all acted), then round 2's rush.
    let mut h = g;
    let mut t = VecTrace::default();
    h.apply_traced(GodsAction::End, &mut rng(1), &mut t);
    let text = t.0.join("\n");
    let fate = text.split("round 1: fate phase").nth(1).unwrap();
    let before_rush = fate.split("== round 2").next().unwrap();
    assert!(!before_rush.contains("Wolf"), "{text}");
    assert!(
        text.contains("== round 2: fate rush phase\nWolf 1 action 1"),
        "{text}"
    );
}

#[test]
fn g5_a_fateling_takes_two_actions_each_the_first_matching_reaction() {
    // The Brute sees her 10 inches away: two moves of 5 inches toward her.
    let g = at(
        "lone_brute",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(12.00,2.00)\nfateling 1 state=active at=(12.00,14.00) wounds=0 activated=0 patrol=1",
    );
    let (h, t) = find(&g, GodsAction::End, |_, _| true);
    assert!(
        t.contains("Brute action 1: sees her: move toward her")
            && t.contains("Brute action 2: sees her: move toward her"),
        "{t}"
    );
    assert_eq!(h.fatelings[0].at, Pos { x: 1200, y: 400 }, "{t}");
}

#[test]
fn reactions_first_match_wins_sight_hearing_smell_patrol() {
    // Guard 2 of the sentries, behind the wall [22,8]-[24,16] from the Scoundrel.
    let base = "fateling 1 state=slain at=(16.00,6.00) wounds=3 activated=0 patrol=1\nfateling 3 state=slain at=(31.00,12.00) wounds=2 activated=0 patrol=1";
    let g = at(
        "sentries",
        &format!(
            "{base}\nscoundrel at=(20.00,12.00)\nfateling 2 state=active at=(27.00,12.00) wounds=0 activated=0 patrol=1"
        ),
    );
    assert!(!g.line_of_sight(1));
    assert_eq!(
        g.reaction(1),
        Reaction::Patrol,
        "quiet, out of sight, out of smell"
    );
    let noisy = at(
        "sentries",
        &format!(
            "{base}\nscoundrel at=(20.00,12.00)\nfateling 2 state=active at=(27.00,12.00) wounds=0 activated=0 patrol=1\nclock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=1 result=0 decisions=0"
        ),
    );
    assert_eq!(
        noisy.reaction(1),
        Reaction::Hearing,
        "6 inches: heard after noise"
    );
    let close = at(
        "sentries",
        &format!(
            "{base}\nscoundrel at=(21.00,10.00)\nfateling 2 state=active at=(25.00,10.00) wounds=0 activated=0 patrol=1"
        ),
    );
    assert!(!close.line_of_sight(1));
    assert_eq!(
        close.reaction(1),
        Reaction::Smell,
        "3 inches, no sight, no noise: smell"
    );
    let seen = at(
        "sentries",
        &format!(
            "{base}\nscoundrel at=(20.00,20.00)\nfateling 2 state=active at=(27.00,20.00) wounds=0 activated=0 patrol=1"
        ),
    );
    assert_eq!(seen.reaction(1), Reaction::Sight);
    // Stand still without a route: the Crawler of the sentries has none.
    let crawler = at(
        "sentries",
        "fateling 1 state=slain at=(16.00,6.00) wounds=3 activated=0 patrol=1\nfateling 2 state=slain at=(28.00,20.00) wounds=3 activated=0 patrol=1\nscoundrel at=(3.00,12.00)",
    );
    assert_eq!(crawler.reaction(2), Reaction::Stand);
}

#[test]
fn patrol_moves_toward_the_next_point_and_then_the_one_after() {
    // Guard 1 of the sentries patrols (16,18) then (16,6), starting at (16,6).
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(5.00,2.00)\nfateling 2 state=slain at=(28.00,20.00) wounds=3 activated=0 patrol=1\nfateling 3 state=slain at=(31.00,12.00) wounds=2 activated=0 patrol=1",
    );
    assert_eq!(g.reaction(0), Reaction::Patrol);
    let (h, t) = find(&g, GodsAction::End, |_, _| true);
    // Two moves of 4 inches north toward (16,18).
    assert_eq!(h.fatelings[0].at, Pos { x: 1600, y: 1400 }, "{t}");
    assert_eq!(h.fatelings[0].patrol, 0);
    let g = at(
        "sentries",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(5.00,2.00)\nfateling 1 state=active at=(16.00,16.00) wounds=0 activated=0 patrol=1\nfateling 2 state=slain at=(28.00,20.00) wounds=3 activated=0 patrol=1\nfateling 3 state=slain at=(31.00,12.00) wounds=2 activated=0 patrol=1",
    );
    let (h, _) = find(&g, GodsAction::End, |_, _| true);
    // Reaches (16,18) with the first move, turns back toward (16,6) with the second.
    assert_eq!(h.fatelings[0].at, Pos { x: 1600, y: 1400 });
    assert_eq!(h.fatelings[0].patrol, 1);
}

#[test]
fn g5_at_most_one_asset_per_scoundrel_phase_unless_it_says_otherwise() {
    let g = at(
        "lone_brute",
        "hand Quick_Step=1,Scavenge=1,Second_Wind=1\nasset_deck Rain_Fire,Rain_Fire,Rain_Fire\nwound_deck Torn_Muscle,Bruise,Bruise,Bruise,Bruise,Bruise,Torn_Muscle,Blurred_Vision,Blurred_Vision,Concussion,Concussion,Cracked_Ribs,Cracked_Ribs,Twisted_Ankle,Twisted_Ankle\nwounds drawn=1 face_up=1",
    );
    let quick = GodsAction::Asset {
        card: 3,
        wound: u8::MAX,
    };
    let wind = GodsAction::Asset { card: 2, wound: 0 };
    let scav = GodsAction::Asset {
        card: 4,
        wound: u8::MAX,
    };
    let l = legal(&g);
    assert!(l.contains(&quick) && l.contains(&wind) && l.contains(&scav));
    let mut h = g;
    h.apply(quick, &mut rng(0));
    assert_eq!(h.actions_left, 3, "Quick Step: one more action");
    let l = legal(&h);
    assert!(!l.contains(&wind), "a second asset this phase");
    assert!(l.contains(&scav), "Scavenge may be used in addition");
    h.apply(scav, &mut rng(0));
    assert_eq!((h.hand_size(), h.deck_len), (3, 1), "Scavenge draws two");
}

#[test]
fn rain_fire_rerolls_every_missed_die_and_precise_strike_one() {
    // Shooting the Brute (target 5) with Rain Fire in hand: a failed die offers the re-roll.
    let g = at("lone_brute", "scoundrel at=(12.00,2.00)\nhand Rain_Fire=1");
    let (s, t) = find(&g, GodsAction::Shoot(0), |h, _| {
        h.phase == Phase::Reroll && h.pending.dice.iter().all(|&d| d < 5)
    });
    assert_eq!(
        legal(&s),
        vec![GodsAction::Reroll, GodsAction::Accept],
        "{t}"
    );
    let (r, t) = find(&s, GodsAction::Reroll, |_, t| {
        t.contains("plays Rain Fire: dice now")
    });
    assert_eq!(r.hand_size(), 0, "{t}");
    // One die met the target, one missed: only the missed one is re-rolled.
    let (s1, _) = find(&g, GodsAction::Shoot(0), |h, _| {
        h.phase == Phase::Reroll && h.pending.dice[0] < 5 && h.pending.dice[1] >= 5
    });
    let (_, t) = find(&s1, GodsAction::Reroll, |_, _| true);
    assert!(t.contains(&format!(" and {}:", s1.pending.dice[1])), "{t}");
    // Both missed: both are re-rolled (some seed changes both).
    let (_, t) = find(&s, GodsAction::Reroll, |_, t| {
        t.lines().any(|l| {
            l.contains("dice now")
                && !l.contains(&format!("now {} and", s.pending.dice[0]))
                && !l.contains(&format!(" and {}:", s.pending.dice[1]))
        })
    });
    assert!(t.contains("plays Rain Fire"));
    // Accepting keeps the miss.
    let mut a = s;
    a.apply(GodsAction::Accept, &mut rng(0));
    assert_eq!((a.fatelings[0].wounds, a.hand_size()), (0, 1));
    // Precise Strike re-rolls only the die that missed: a die that met stays.
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,18.00)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1\nhand Precise_Strike=1",
    );
    let (s, _) = find(&g, GodsAction::Attack(0), |h, _| {
        h.phase == Phase::Reroll && h.pending.dice[0] >= 4 && h.pending.dice[1] < 4
    });
    let kept = s.pending.dice[0];
    let (_, t) = find(&s, GodsAction::Reroll, |_, _| true);
    assert!(t.contains(&format!("dice now {kept} and")), "{t}");
    // No re-roll offered once another asset was used this phase.
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,2.00)\nhand Rain_Fire=1\nclock round=1 phase=scoundrel actions_left=2 assets_used=1 noise=0 result=0 decisions=0",
    );
    let (s, _) = find(&g, GodsAction::Shoot(0), |_, t| t.contains(": miss"));
    assert_eq!(s.phase, Phase::Scoundrel);
}

#[test]
fn face_up_wounds_apply_and_second_wind_turns_one_down() {
    // Twisted Ankle face up: moves are an inch shorter.
    let g = at(
        "lone_brute",
        "scoundrel at=(2.00,2.00)\nwound_deck Twisted_Ankle,Bruise,Bruise,Bruise,Bruise,Bruise,Torn_Muscle,Torn_Muscle,Blurred_Vision,Blurred_Vision,Concussion,Concussion,Cracked_Ribs,Cracked_Ribs,Twisted_Ankle\nwounds drawn=1 face_up=1\nhand Second_Wind=1",
    );
    let mut h = g;
    h.apply(
        GodsAction::Move {
            goal: Goal::Toward(0),
            half: false,
        },
        &mut rng(0),
    );
    assert!((h.scoundrel().dist(g.scoundrel()) - 3.0).abs() < 0.02);
    let mut w = g;
    w.apply(GodsAction::Asset { card: 2, wound: 0 }, &mut rng(0));
    assert_eq!(w.face_up, 0);
    w.apply(
        GodsAction::Move {
            goal: Goal::Toward(0),
            half: false,
        },
        &mut rng(0),
    );
    assert!((w.scoundrel().dist(g.scoundrel()) - 4.0).abs() < 0.02);
}

// ---------------------------------------------------------------------------------------------
// G6: distances

#[test]
fn g6_in_combat_within_two_inches_reach_one_inch_edge_to_edge() {
    // Brute radius 1, Scoundrel 0.5: centres 3.5 apart = 2 inches edge to edge.
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,16.50)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    assert!((g.distance(0) - 2.0).abs() < 1e-4);
    assert!(g.in_combat());
    assert!(!g.can_attack(0));
    // The list of legal actions applies the same "within 2 inches" (no shot in combat).
    assert!(!legal(&g).contains(&GodsAction::Shoot(0)));
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,16.40)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    assert!(!g.in_combat());
    assert!(legal(&g).contains(&GodsAction::Shoot(0)));
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,17.50)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    assert!(g.can_attack(0));
    let g = at(
        "lone_brute",
        "scoundrel at=(12.00,17.40)\nfateling 1 state=active at=(12.00,20.00) wounds=0 activated=0 patrol=1",
    );
    assert!(!g.can_attack(0));
}

#[test]
fn g6_a_move_is_up_to_four_inches_and_a_sneak_two() {
    let g = at("lone_brute", "scoundrel at=(2.00,2.00)");
    for (a, d) in [
        (
            GodsAction::Move {
                goal: Goal::Toward(0),
                half: false,
            },
            4.0,
        ),
        (
            GodsAction::Move {
                goal: Goal::Toward(0),
                half: true,
            },
            2.0,
        ),
        (GodsAction::Sneak(Goal::Toward(0)), 2.0),
    ] {
        let mut h = g;
        h.apply(a, &mut rng(0));
        assert!(
            (h.scoundrel().dist(g.scoundrel()) - d).abs() < 0.02,
            "{a:?}"
        );
    }
    // A sneak makes no noise, a move does.
    let mut h = g;
    h.apply(GodsAction::Sneak(Goal::Toward(0)), &mut rng(0));
    assert!(!h.noise);
    h.apply(
        GodsAction::Move {
            goal: Goal::Away(0),
            half: true,
        },
        &mut rng(0),
    );
    // The phase ended: the fate phase and the next round began (noise resets in her phase).
    assert_eq!(h.round, g.round + 1);
}

#[test]
fn g6_blind_sees_no_farther_than_six_inches_keen_senses_count_twelve() {
    // The sentries' Crawler is blind: 7 inches in the open is out of its sight.
    let g = at(
        "sentries",
        "fateling 1 state=slain at=(16.00,6.00) wounds=3 activated=0 patrol=1\nfateling 2 state=slain at=(28.00,20.00) wounds=3 activated=0 patrol=1\nscoundrel at=(30.00,3.00)\nfateling 3 state=active at=(30.00,11.10) wounds=0 activated=0 patrol=1",
    );
    assert!(g.line_of_sight(2) && g.distance(2) > 6.5);
    assert_eq!(g.reaction(2), Reaction::Stand);
    let g = at(
        "sentries",
        "fateling 1 state=slain at=(16.00,6.00) wounds=3 activated=0 patrol=1\nfateling 2 state=slain at=(28.00,20.00) wounds=3 activated=0 patrol=1\nscoundrel at=(30.00,5.00)\nfateling 3 state=active at=(30.00,11.00) wounds=0 activated=0 patrol=1",
    );
    assert!(g.distance(2) < 6.0);
    assert_eq!(g.reaction(2), Reaction::Sight);
    // Wolves have keen senses: 11 inches away behind a tree counts as in sight.
    let g = at(
        "wolf_pack",
        "scoundrel at=(10.00,6.00)\nfateling 1 state=active at=(10.00,18.00) wounds=0 activated=0 patrol=1\nfateling 2 state=slain at=(18.00,33.00) wounds=2 activated=0 patrol=1\nfateling 3 state=slain at=(26.00,31.00) wounds=2 activated=0 patrol=1",
    );
    assert!(!g.line_of_sight(0));
    assert!(g.distance(0) < 12.0);
    assert_eq!(g.reaction(0), Reaction::Sight);
}

#[test]
fn g6_ethereal_moves_through_walls_and_ends_clear_walkers_go_around() {
    // The wraith (ethereal) 3 inches above the wall [6,8]-[14,9], the Scoundrel below it.
    let lines = "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=1 result=0 decisions=0\nscoundrel at=(10.00,5.00)\nfateling 2 state=slain at=(4.00,28.00) wounds=2 activated=0 patrol=1\nfateling 3 state=slain at=(26.00,28.00) wounds=2 activated=0 patrol=1";
    let g = at(
        "haunted_ruins",
        &format!("{lines}\nfateling 1 state=active at=(10.00,11.00) wounds=0 activated=0 patrol=1"),
    );
    assert!(!g.line_of_sight(0));
    assert_eq!(g.reaction(0), Reaction::Hearing);
    let (h, t) = find(&g, GodsAction::End, |_, _| true);
    // Straight through: 6 inches down to base contact (y = 6.00), clear of the wall.
    assert_eq!(h.fatelings[0].at, Pos { x: 1000, y: 600 }, "{t}");
    // A walker (the Brute) must go around the lone brute's wall instead.
    let g = at(
        "lone_brute",
        "clock round=1 phase=scoundrel actions_left=2 assets_used=0 noise=1 result=0 decisions=0\nscoundrel at=(16.00,6.00)\nfateling 1 state=active at=(16.00,14.00) wounds=0 activated=0 patrol=1",
    );
    let (h, t) = find(&g, GodsAction::End, |_, _| true);
    let p = h.pos(0);
    assert!(
        !(p.x > 13.0 && p.x < 19.0 && p.y > 9.0 && p.y < 12.0),
        "{t}"
    );
    assert!(h.distance(0) < 6.0, "{t}");
}

#[test]
fn the_witch_curses_summons_and_her_ritual_ends_the_game() {
    // End of round 6: curse (every 2) and both summons (every 3).
    let g = at(
        "witch_coven",
        "clock round=6 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(3.00,2.00)",
    );
    let (h, t) = find(&g, GodsAction::End, |_, _| true);
    assert!(
        t.contains("Witch's curse (every 2 rounds)") && t.contains("dodge test, target 6"),
        "{t}"
    );
    assert!(
        t.contains("Witch summons Ghoul 1") && t.contains("Witch summons Ghoul 2"),
        "{t}"
    );
    assert_eq!(h.fatelings[5].state, FState::Active);
    // Round 10 ends with the witch alive: ritual_completed.
    let g = at(
        "witch_coven",
        "clock round=10 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(3.00,2.00)",
    );
    let (h, t) = find(&g, GodsAction::End, |h, _| h.wounds_drawn < 10);
    assert_eq!(h.outcome(), Some(Outcome::Lost(2)), "{t}");
    assert_eq!(Gods::LOSS_CAUSES[2], "ritual_completed");
    // Slaying the witch wins, the guards still standing.
    let g = at(
        "witch_coven",
        "scoundrel at=(24.00,29.50)\nfateling 1 state=active at=(24.00,31.00) wounds=2 activated=0 patrol=1",
    );
    let (h, _) = find(&g, GodsAction::Attack(0), |_, t| t.contains(": weak hit"));
    assert_eq!(h.outcome(), Some(Outcome::Won));
}

#[test]
fn reaching_the_relic_wins_the_sentries_and_time_runs_out_elsewhere() {
    let g = at(
        "sentries",
        "scoundrel at=(29.00,12.00)\nfateling 3 state=slain at=(31.00,12.00) wounds=2 activated=0 patrol=1",
    );
    assert!(legal(&g).contains(&GodsAction::Move {
        goal: Goal::Objective(0),
        half: false
    }));
    let mut h = g;
    h.apply(
        GodsAction::Move {
            goal: Goal::Objective(0),
            half: false,
        },
        &mut rng(0),
    );
    assert_eq!(h.outcome(), Some(Outcome::Won));
    let g = at(
        "lone_brute",
        "clock round=10 phase=scoundrel actions_left=2 assets_used=0 noise=0 result=0 decisions=0\nscoundrel at=(2.00,2.00)\nfateling 1 state=active at=(22.00,22.00) wounds=0 activated=0 patrol=1",
    );
    let (h, _) = find(&g, GodsAction::End, |h, _| h.wounds_drawn == 0);
    assert_eq!(h.outcome(), Some(Outcome::Lost(1)));
    assert_eq!(Gods::LOSS_CAUSES[1], "time_ran_out");
}

#[test]
fn a_move_never_passes_through_another_model() {
    // The Brute stands between the Scoundrel and the relic-less far side: moving toward a
    // point past it stops at its base.
    let g = at(
        "lone_brute",
        "scoundrel at=(2.00,20.00)\nfateling 1 state=active at=(5.00,20.00) wounds=0 activated=0 patrol=1",
    );
    let mut h = g;
    h.apply(
        GodsAction::Move {
            goal: Goal::Toward(0),
            half: false,
        },
        &mut rng(0),
    );
    assert!((h.scoundrel().x - 3.5).abs() < 0.02, "{:?}", h.scoundrel());
}

#[test]
fn positions_round_trip_on_states_from_playouts() {
    let c = builtin();
    for e in 0..c.encounters.len() {
        let mut values = SetupValues::new();
        values.insert(
            "encounter".into(),
            sololab::AxisValue::Name(c.encounters[e].name.clone()),
        );
        let setup = Gods::resolve_setup(&values).unwrap();
        for seed in 0..6 {
            let mut g = Gods::new_game(&setup, &mut stream_rng(seed, 0, Stream::Setup));
            let mut r = rng(seed);
            let mut acts = Vec::new();
            let mut k = 0u64;
            loop {
                let text = g.to_position();
                let back = Gods::from_position(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(back, g, "{text}");
                assert_eq!(back.to_position(), text);
                g.legal_actions(&mut acts);
                if acts.is_empty() {
                    break;
                }
                k = k
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let a = acts[(k >> 33) as usize % acts.len()];
                g.apply(a, &mut r);
            }
        }
    }
}
