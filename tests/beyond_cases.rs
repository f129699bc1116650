//! Beyond the Rift: the rulebook cases BR1-BR10 (`../shared/cases/beyond.md`) through the
//! position format, hidden information (determinization, the honest and the cheating MCTS),
//! and bad input (content files, setup values, positions).

mod common;

use common::legal;
use rand::SeedableRng;
use sololab::games::beyond::content::{self, ActType, NO_CARD};
use sololab::games::beyond::content_file;
use sololab::games::beyond::state::{Pending, Phase, QUEST};
use sololab::games::beyond::{Beyond, BeyondAction as A, BeyondSetup};
use sololab::policy::{MctsConfig, MctsPolicy, Rollout};
use sololab::{AxisValue, Game, GameRng, Outcome, Policy, SetupValues, VecTrace};

const TUTORIAL: &str = "Out_Through_the_Side_Entrance";

/// A state from position lines (header and content added); asserts the position round-trips.
fn pos(body: &str) -> Beyond {
    let b: Beyond = common::parse(&format!("beyond-position 1\ncontent builtin\n{body}"));
    common::assert_round_trip(&b);
    b
}

/// The index of the first Response card with `number` and `value` in the builtin content.
fn resp(number: u8, value: u8) -> u8 {
    content::builtin()
        .response
        .iter()
        .position(|r| r.number == number && r.value == value)
        .expect("such a response card") as u8
}

/// A `response_deck` line whose cards are drawn in the order given.
fn responses(draws: &[(u8, u8)]) -> String {
    let list: Vec<String> = draws
        .iter()
        .rev()
        .map(|&(n, v)| resp(n, v).to_string())
        .collect();
    format!("response_deck {}\n", list.join(","))
}

fn card(name: &str) -> u8 {
    content::builtin().card_index(name).expect(name)
}

fn game(heroes: u8, extra: &str) -> String {
    format!(
        "game scenario={TUTORIAL} heroes={heroes} threat=1 round=1 phase=hero pending=none {extra}\nterrain Side_Door\n"
    )
}

fn rng() -> GameRng {
    GameRng::seed_from_u64(7)
}

fn play(b: &mut Beyond, a: A, t: &mut VecTrace) {
    let legal = legal(b);
    assert!(
        legal.contains(&a),
        "{a:?} not legal in\n{}\nlegal: {legal:?}",
        b.to_position()
    );
    b.apply_traced(a, &mut rng(), t);
}

fn traced(t: &VecTrace, needle: &str) -> bool {
    t.0.iter().any(|l| l.contains(needle))
}

fn setup(pairs: &[(&str, AxisValue)]) -> Result<BeyondSetup, String> {
    let mut v = SetupValues::new();
    for (k, x) in pairs {
        v.insert(k.to_string(), x.clone());
    }
    BeyondSetup::resolve(&v).map_err(|e| e.0)
}

fn name(s: &str) -> AxisValue {
    AxisValue::Name(s.to_string())
}

/// The position lines of hero `i` (1-based) named `name` with `points`, its deck (bottom first)
/// and hand as position lists (`-` for none); board side 0, no items.
fn hero(i: u8, name: &str, points: u8, deck: &str, hand: &str) -> String {
    format!(
        "hero {i} name={name} side=0 points={points} known=0 items=-,-,-,-,-\nhero {i} deck {deck}\nhero {i} hand {hand}\n"
    )
}

/// Plays an `Attack` (asserting it is legal).
fn attack(b: &mut Beyond, t: &mut VecTrace, hero: u8, card: u8, opt: u8, target: u8) {
    play(
        b,
        A::Attack {
            hero,
            card,
            opt,
            target,
        },
        t,
    );
}

/// Plays an `AddCard` (asserting it is legal).
fn add(b: &mut Beyond, t: &mut VecTrace, hero: u8, card: u8, opt: u8) {
    play(b, A::AddCard { hero, card, opt }, t);
}

/// Plays a `Defend` (asserting it is legal).
fn defend(b: &mut Beyond, t: &mut VecTrace, hero: u8, card: u8, opt: u8) {
    play(b, A::Defend { hero, card, opt }, t);
}

// ---------------------------------------------------------------------------------------------
// BR1 — numbers by hero count

#[test]
fn br1_hand_size_and_every_abcd_value_pick_by_hero_count() {
    let c = content::builtin();
    let door = c.terrain_index("Side Door").unwrap() as usize;
    for (n, hand, start) in [(1u8, 7usize, 1usize), (2, 6, 2), (3, 5, 2), (4, 4, 3)] {
        let s = setup(&[("heroes", AxisValue::Int(n as i64))]).unwrap();
        let b = Beyond::new_game(&s, &mut rng());
        assert_eq!(b.n_heroes, n);
        for h in 0..n as usize {
            assert_eq!(b.heroes[h].hand.len(), hand, "hand size with {n} heroes");
        }
        // start_enemies = [1, 2, 2, 3] in the tutorial.
        assert_eq!(b.enemies.iter().filter(|e| e.alive()).count(), start);
        // Side Door points = [4, 5, 6, 7] ... as written, picked by count.
        assert_eq!(
            b.per(c.terrain[door].points),
            c.terrain[door].points[n as usize - 1]
        );
    }
    assert_eq!(c.hand_size, [7, 6, 5, 4]);
}

// ---------------------------------------------------------------------------------------------
// BR2 — a hero attack

fn br2_state(hand: &str, attach: &str, draws: &[(u8, u8)]) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 deck Plate_Guard,Plate_Guard\nhero 1 hand {hand}\nenemy 1 kind=Guard area=1 seq=0 attach={attach}\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        game(1, ""),
        responses(draws)
    ))
}

#[test]
fn br2_attack_above_defense_plus_response_hits_for_the_damage_value() {
    let mut b = br2_state("Longsword_Slash,Longsword_Slash", "-", &[(1, 2)]);
    let ls = card("Longsword Slash");
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 0);
    assert_eq!(b.heroes[0].points, 3, "primary cost 2");
    add(&mut b, &mut t, 0, ls, 0);
    assert_eq!(b.heroes[0].points, 2, "secondary cost 1");
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(
        traced(
            &t,
            "attack 6 against Guard's defense 2 + response 2 = 4: hit"
        ),
        "{:?}",
        t.0
    );
    assert_eq!(
        b.enemies[0].attach.len(),
        1,
        "damage value 1 Wound, whatever the margin"
    );
    assert!(b.enemies[0].alive(), "health 2 - 1 = 1");
    assert_eq!(b.heroes[0].discard.as_slice(), &[ls, ls]);
}

#[test]
fn br2_a_tie_fails_and_attachments_offset_the_defense() {
    let ls = card("Longsword Slash");
    let sb = card("Shield Bash");
    // 3 + 2 = 5 against 2 + 3 = 5: a tie goes against the attacker.
    let mut b = br2_state("Longsword_Slash,Shield_Bash", "-", &[(1, 3)]);
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 0);
    add(&mut b, &mut t, 0, sb, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(
        traced(
            &t,
            "attack 5 against Guard's defense 2 + response 3 = 5: miss"
        ),
        "{:?}",
        t.0
    );
    assert_eq!(b.enemies[0].attach.len(), 0);
    // A Bruise (defense -1) attached: 5 against 1 + 3 = 4 hits.
    let mut b = br2_state("Longsword_Slash,Shield_Bash", "Wound:_Bruise", &[(1, 3)]);
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 0);
    add(&mut b, &mut t, 0, sb, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(traced(&t, "defense 1 + response 3 = 4: hit"), "{:?}", t.0);
    // Health 2 - 1 (Bruise) - 1 (new wound) = 0: dead, attachments to the Wound discard.
    assert!(!b.enemies[0].alive());
    assert_eq!(b.tally.defeated, 1);
    assert_eq!(b.wound_discard.len(), 2);
}

#[test]
fn br2_cards_without_the_needed_cost_and_response_symbols() {
    let fire = card("Fire Spell");
    let bolt = card("Arcane Bolt");
    let body = |hand: &str, draws: &[(u8, u8)]| {
        pos(&format!(
            "{}hero 1 name=Elisa side=0 points=6 known=0 items=-,-,-,-,-\nhero 1 deck Focus,Focus\nhero 1 hand {hand}\nenemy 1 kind=Acolyte area=quest seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
            game(1, ""),
            responses(draws)
        ))
    };
    // Fire Spell has no Primary cost: it cannot initiate an attack.
    let b = body("Fire_Spell", &[]);
    assert!(!legal(&b).iter().any(|a| matches!(a, A::Attack { .. })));
    // With Arcane Bolt first, Fire Spell is added for its Secondary cost; two response symbols
    // are drawn after all cards, then the defense's card.
    let mut b = body("Arcane_Bolt,Fire_Spell", &[(2, 1), (2, 2), (1, 0)]);
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, bolt, 0, 0);
    add(&mut b, &mut t, 0, fire, 0);
    assert_eq!(b.heroes[0].points, 6 - 2 - 1);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(
        traced(
            &t,
            "attack 7 against Acolyte's defense 1 + response 0 = 1: hit"
        ),
        "{:?}",
        t.0
    );
    assert!(!b.enemies[0].alive());
}

#[test]
fn br2_aiding_pays_the_primary_cost_and_needs_range() {
    let ls = card("Longsword Slash");
    let knife = card("Throwing Knife");
    let stab = card("Dagger Stab");
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 hand Longsword_Slash\nhero 2 name=Niffil side=0 points=5 known=0 items=-,-,-,-,-\nhero 2 hand Throwing_Knife,Dagger_Stab\nenemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(2, ""),
        responses(&[(1, 0)])
    ));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 0);
    let l = legal(&b);
    assert!(
        l.contains(&A::AddCard {
            hero: 1,
            card: knife,
            opt: 0
        }),
        "range 2 aids"
    );
    assert!(
        !l.contains(&A::AddCard {
            hero: 1,
            card: stab,
            opt: 0
        }),
        "range 1 cannot reach"
    );
    add(&mut b, &mut t, 1, knife, 0);
    assert_eq!(
        b.heroes[1].points, 3,
        "aiding pays the Primary cost (2), not the Secondary (1)"
    );
    play(&mut b, A::ResolveAttack, &mut t);
    assert_eq!(b.enemies[0].attach.len(), 1, "only the initiator's damage");
    assert_eq!(b.heroes[1].discard.as_slice(), &[knife]);
}

// ---------------------------------------------------------------------------------------------
// BR3 — an enemy attack

fn br3_state(points: u8, draws: &[(u8, u8)]) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points={points} known=0 items=-,-,-,-,-\nhero 1 deck Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard\nhero 1 hand Plate_Guard,Longsword_Slash\nenemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(1, ""),
        responses(draws)
    ))
}

#[test]
fn br3_defense_committed_before_the_response_card_and_wounds_go_to_the_hand() {
    let pg = card("Plate Guard");
    let gash = card("Wound: Gash");
    // Column 1: "attack / engage". Attack 3 + 1 = 4 against 2 (Plate Guard) + 1 (points) = 3.
    let mut b = br3_state(3, &[(1, 0), (1, 1)]);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.pending, Pending::Defend);
    let l = legal(&b);
    assert_eq!(l[0], A::TakeAttack);
    assert!(
        l.contains(&A::DefendPoints)
            && l.contains(&A::Defend {
                hero: 0,
                card: pg,
                opt: 0
            })
    );
    defend(&mut b, &mut t, 0, pg, 0);
    play(&mut b, A::DefendPoints, &mut t);
    assert_eq!(b.heroes[0].points, 2, "defense rate 1 point per +1");
    play(&mut b, A::TakeAttack, &mut t);
    assert!(
        traced(
            &t,
            "Guard's attack 3 + response 1 = 4 against Bastian's defense 3: hit"
        ),
        "{:?}",
        t.0
    );
    assert!(traced(&t, "Bastian receives Wound: Gash"));
    assert_eq!(b.tally.wounds_taken, 1);
    // BR4 on the way: points reset to 4 + 2 cards held (Longsword, the Wound).
    assert_eq!(b.round, 2);
    assert_eq!(b.heroes[0].points, 6);
    assert!(b.heroes[0].hand.as_slice().contains(&gash));
}

#[test]
fn br3_a_tie_blocks_the_enemy_attack() {
    let pg = card("Plate Guard");
    let mut b = br3_state(3, &[(1, 0), (1, 0)]);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    defend(&mut b, &mut t, 0, pg, 0);
    play(&mut b, A::DefendPoints, &mut t);
    play(&mut b, A::TakeAttack, &mut t);
    assert!(
        traced(&t, "= 3 against Bastian's defense 3: blocked"),
        "{:?}",
        t.0
    );
    assert_eq!(b.tally.wounds_taken, 0);
}

// ---------------------------------------------------------------------------------------------
// BR4 — draw phase and the dead hero

fn br4_state(hand: &str) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand {hand}\nwound_deck Wound:_Gash\n{}",
        game(1, ""),
        responses(&[(1, 0)])
    ))
}

#[test]
fn br4_discard_down_never_takes_wounds_and_only_wounds_is_death() {
    let pg = card("Plate Guard");
    // 6 wounds and 3 Plate Guards: discard down to 7 keeps a Plate Guard: alive.
    let mut b = br4_state(
        "Wound:_Gash,Wound:_Gash,Wound:_Gash,Wound:_Bruise,Wound:_Bruise,Wound:_Bruise,Plate_Guard,Plate_Guard,Plate_Guard",
    );
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.pending, Pending::DiscardDown { hero: 0 });
    assert_eq!(legal(&b), vec![A::Discard { card: pg }], "never a Wound");
    assert_eq!(
        b.heroes[0].points,
        4 + 9,
        "start value + one per card still held"
    );
    play(&mut b, A::Discard { card: pg }, &mut t);
    play(&mut b, A::Discard { card: pg }, &mut t);
    assert_eq!(b.heroes[0].hand.len(), 7);
    assert_eq!(b.outcome(), None);
    assert_eq!(b.round, 2);
    // 7 wounds and 2 Plate Guards: after discarding both, only wounds: dead.
    let mut b = br4_state(
        "Wound:_Gash,Wound:_Gash,Wound:_Gash,Wound:_Bruise,Wound:_Bruise,Wound:_Bruise,Wound:_Sprain,Plate_Guard,Plate_Guard",
    );
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    play(&mut b, A::Discard { card: pg }, &mut t);
    play(&mut b, A::Discard { card: pg }, &mut t);
    assert_eq!(b.outcome(), Some(Outcome::Lost(0)));
    assert_eq!(Beyond::LOSS_CAUSES[0], "hero_died");
}

#[test]
fn br4_draw_to_hand_size_or_a_full_hand_size_by_the_rule_axis() {
    let mut b = br4_state("Plate_Guard,Plate_Guard");
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.heroes[0].hand.len(), 7, "draws 5 up to 7");
    assert_eq!(b.heroes[0].points, 4 + 2);
    let mut b = br4_state("Plate_Guard,Plate_Guard");
    b.draw_full = true;
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(
        b.heroes[0].hand.len(),
        9,
        "draws 7 to 9, then discards down"
    );
    assert_eq!(b.pending, Pending::DiscardDown { hero: 0 });
    // Discarding down to 7 ends the only hero's Draw Phase: the End Phase, then round 2.
    let pg = card("Plate Guard");
    play(&mut b, A::Discard { card: pg }, &mut t);
    play(&mut b, A::Discard { card: pg }, &mut t);
    assert_eq!(
        (b.pending, b.round, b.heroes[0].hand.len()),
        (Pending::None, 2, 7),
        "{:?}",
        t.0
    );
}

// ---------------------------------------------------------------------------------------------
// BR5 — empty decks

#[test]
fn br5_an_empty_hero_deck_takes_two_fatigue_into_the_reshuffle() {
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 deck -\nhero 1 discard Rally,Rally,Rally\nhero 1 hand Plate_Guard\nfatigue_deck Fatigue:_Weary,Fatigue:_Weary,Fatigue:_Slow\n{}",
        game(1, ""),
        responses(&[])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::Draw { hero: 0 }, &mut t);
    assert_eq!(b.fatigue_deck.len(), 1);
    assert_eq!(b.heroes[0].discard.len(), 0);
    assert_eq!(b.heroes[0].deck.len() + b.heroes[0].hand.len(), 3 + 2 + 1);
    let fatigue = b.heroes[0]
        .deck
        .as_slice()
        .iter()
        .chain(b.heroes[0].hand.as_slice())
        .filter(|&&c| b.is_wf(c))
        .count();
    assert_eq!(fatigue, 2);
}

fn br5_attack(enemy: &str, wounds: &str, wound_discard: &str, fatigue: &str) -> (Beyond, VecTrace) {
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand Rally\nenemy 1 kind={enemy} area=1 seq=0 attach=-\nwound_deck {wounds}\nwound_discard {wound_discard}\nfatigue_deck {fatigue}\n{}",
        game(1, ""),
        responses(&[(1, 0), (1, 3)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    play(&mut b, A::TakeAttack, &mut t);
    (b, t)
}

#[test]
fn br5_no_wound_left_loses_and_a_wound_discard_is_reshuffled() {
    let (b, _) = br5_attack("Guard", "-", "-", "Fatigue:_Weary");
    assert_eq!(b.outcome(), Some(Outcome::Lost(1)));
    assert_eq!(Beyond::LOSS_CAUSES[1], "wounds_exhausted");
    let (b, t) = br5_attack("Guard", "-", "Wound:_Sprain", "Fatigue:_Weary");
    assert_eq!(b.outcome(), None);
    assert!(traced(
        &t,
        "the Wound discard pile is shuffled into a new Wound Deck"
    ));
    assert!(traced(&t, "Bastian receives Wound: Sprain"));
}

#[test]
fn br5_no_fatigue_left_gives_a_wound_to_a_hero_and_nothing_to_an_enemy() {
    let (b, t) = br5_attack("Acolyte", "Wound:_Gash", "-", "-");
    assert!(
        traced(&t, "no Fatigue card left: a Wound instead"),
        "{:?}",
        t.0
    );
    assert!(b.heroes[0].hand.as_slice().contains(&card("Wound: Gash")));
    // Burning Hex hits a Guard slowed to defense 1: 1 Wound (Elisa's damage) and its Bonus
    // Fatigue, none left: nothing more is attached.
    let hex = card("Burning Hex");
    let mut b = pos(&format!(
        "{}hero 1 name=Elisa side=0 points=6 known=0 items=-,-,-,-,-\nhero 1 hand Burning_Hex\nenemy 1 kind=Guard area=quest seq=0 attach=Fatigue:_Slow\nwound_deck Wound:_Gash\nfatigue_deck -\n{}",
        game(1, ""),
        responses(&[(1, 0)])
    ));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, hex, 0, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(traced(&t, "hit"), "{:?}", t.0);
    assert_eq!(
        b.enemies[0].attach.as_slice(),
        &[card("Fatigue: Slow"), card("Wound: Gash")]
    );
    assert_eq!(b.outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// BR6 — limits

#[test]
fn br6_points_cap_and_stat_floors() {
    let b = pos(&format!(
        "{}hero 1 name=Niffil side=0 points=19 known=0 items=-,-,-,-,-\nhero 1 hand Dagger_Stab\nenemy 1 kind=Acolyte area=quest seq=0 attach=Fatigue:_Slow,Fatigue:_Slow,Fatigue:_Weary,Fatigue:_Weary,Fatigue:_Weary\nenemy 2 kind=Guard area=quest seq=1 attach=Fatigue:_Winded,Wound:_Sprain,Wound:_Sprain,Wound:_Sprain\n{}",
        game(1, ""),
        responses(&[])
    ));
    let st = b.enemy_stats(0);
    assert_eq!(st.range, 1, "2 - 2 stays at 1");
    assert_eq!(st.defense, 0, "1 - 2 stays at 0");
    assert_eq!(st.attack, 0, "2 - 3 stays at 0");
    let g = b.enemy_stats(1);
    assert_eq!(g.engage, 0, "2 + 1 - 3 stays at 0");
    assert!(
        legal(&b).contains(&A::Engage { hero: 0, enemy: 1 }),
        "engaging at cost 0"
    );
    let mut b2 = b;
    let mut t = VecTrace::default();
    play(
        &mut b2,
        A::DiscardForPoints {
            hero: 0,
            card: card("Dagger Stab"),
        },
        &mut t,
    );
    assert_eq!(b2.heroes[0].points, 20, "19 + 2 capped at 20");
}

#[test]
fn br6_an_attack_with_wounds_never_drops_below_one() {
    let bomb = card("Smoke Bomb");
    let mut b = pos(&format!(
        "{}hero 1 name=Niffil side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 hand Smoke_Bomb,Fatigue:_Slow,Wound:_Gash\nenemy 1 kind=Acolyte area=quest seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(1, ""),
        responses(&[(1, 0)])
    ));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, bomb, 0, 0);
    add(&mut b, &mut t, 0, card("Fatigue: Slow"), 0);
    add(&mut b, &mut t, 0, card("Wound: Gash"), 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(
        traced(
            &t,
            "attack 1 against Acolyte's defense 1 + response 0 = 1: miss"
        ),
        "{:?}",
        t.0
    );
    assert_eq!(
        b.fatigue_discard.as_slice(),
        &[card("Fatigue: Slow")],
        "a played Fatigue"
    );
    assert!(
        b.heroes[0]
            .discard
            .as_slice()
            .contains(&card("Wound: Gash")),
        "a played Wound"
    );
}

// ---------------------------------------------------------------------------------------------
// BR7 — enemy activation

fn br7_state(enemies: &str, draws: &[(u8, u8)]) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand Rally\n{enemies}wound_deck Wound:_Gash,Wound:_Gash\n{}",
        game(1, ""),
        responses(draws)
    ))
}

#[test]
fn br7_unable_takes_the_alternate_or_does_nothing() {
    // Column 1 "attack / engage": a range-1 Guard in the Quest Area cannot attack: engages.
    let mut b = br7_state("enemy 1 kind=Guard area=quest seq=0 attach=-\n", &[(1, 0)]);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(
        traced(&t, "Guard is unable to attack: alternate engage"),
        "{:?}",
        t.0
    );
    assert_eq!(b.enemies[0].area, 0);
    // Column 2 "engage", "attack": already engaged, engage is unable and has no alternate.
    let mut b = br7_state(
        "enemy 1 kind=Guard area=1 seq=0 attach=-\n",
        &[(2, 0), (1, 3)],
    );
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(
        traced(&t, "Guard is unable to engage: does nothing"),
        "{:?}",
        t.0
    );
    assert_eq!(b.pending, Pending::Defend, "then its second action, attack");
    // Column 3 "support Guard / attack": no other Guard, so it attacks.
    let mut b = br7_state(
        "enemy 1 kind=Guard area=1 seq=0 attach=-\n",
        &[(3, 0), (1, 3)],
    );
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(
        traced(&t, "unable to support Guard: alternate attack"),
        "{:?}",
        t.0
    );
}

#[test]
fn br7_every_enemy_top_to_bottom_and_no_card_without_enemies() {
    // Rows: Guard, then Acolyte; within a row, in order of entering play.
    let mut b = br7_state(
        "enemy 1 kind=Acolyte area=quest seq=0 attach=-\nenemy 2 kind=Guard area=quest seq=2 attach=-\nenemy 3 kind=Guard area=quest seq=1 attach=-\n",
        &[(1, 0)],
    );
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    let acts: Vec<&String> = t.0.iter().filter(|l| l.contains("activates")).collect();
    assert_eq!(acts.len(), 3, "{:?}", t.0);
    assert!(acts[0].starts_with("Guard") && acts[1].starts_with("Guard"));
    assert!(acts[2].starts_with("Acolyte"));
    assert_eq!(
        b.enemies[2].area, 0,
        "the Guard that came first engaged first"
    );
    // Without enemies no Response card is drawn.
    let mut b = br7_state("", &[(1, 0)]);
    let before = b.response_deck.len();
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(traced(&t, "no enemies in play"));
    assert_eq!(b.response_deck.len(), before);
}

// ---------------------------------------------------------------------------------------------
// BR8 — target priority

fn br8_state(h1: &str, h2: &str, enemies: &str, draws: &[(u8, u8)]) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand {h1}\nhero 2 name=Elisa side=0 points=0 known=0 items=-,-,-,-,-\nhero 2 deck Focus,Focus,Focus,Focus,Focus,Focus\nhero 2 hand {h2}\n{enemies}wound_deck Wound:_Gash,Wound:_Gash\n{}",
        game(2, ""),
        responses(draws)
    ))
}

#[test]
fn br8_fewest_enemies_then_fewest_cards_then_most_wounds_then_the_players() {
    let guard = "enemy 1 kind=Guard area=quest seq=0 attach=-\n";
    // Fewer cards: Elisa.
    let mut b = br8_state("Rally,Rally,Rally", "Focus,Focus", guard, &[(1, 0)]);
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!(b.enemies[0].area, 1);
    // Fewer enemies beats fewer cards: an Acolyte already with Elisa.
    let mut b = br8_state(
        "Rally,Rally,Rally",
        "Focus,Focus",
        "enemy 1 kind=Guard area=quest seq=0 attach=-\nenemy 2 kind=Acolyte area=2 seq=1 attach=-\n",
        &[(1, 0), (1, 0)],
    );
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!(b.enemies[0].area, 0);
    // Equal cards, more Wounds: Bastian.
    let mut b = br8_state("Rally,Wound:_Gash", "Focus,Focus", guard, &[(1, 0)]);
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!(b.enemies[0].area, 0);
    // A full tie: the players choose.
    let mut b = br8_state("Rally,Rally", "Focus,Focus", guard, &[(1, 0)]);
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!(b.pending, Pending::PickTarget { tied: 0b11 });
    assert_eq!(
        legal(&b),
        vec![A::Target { hero: 0 }, A::Target { hero: 1 }]
    );
    play(&mut b, A::Target { hero: 1 }, &mut VecTrace::default());
    assert_eq!(b.enemies[0].area, 1);
}

#[test]
fn br8_the_order_is_fixed_for_the_whole_activation() {
    // Column 2 "engage", "attack": Elisa (fewer cards) is engaged; she now has the most
    // enemies, but the order fixed before the first action still puts her first.
    let mut b = br8_state(
        "Rally,Rally,Rally",
        "Focus,Focus",
        "enemy 1 kind=Guard area=quest seq=0 attach=-\n",
        &[(2, 0), (1, 0)],
    );
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!(b.pending, Pending::Defend);
    assert_eq!(b.defend.hero, 1);
    assert_eq!(b.cursor.rank[0], 1);
    assert!(
        b.priority_key(1) > b.priority_key(0),
        "a fresh priority would pick Bastian"
    );
}

// ---------------------------------------------------------------------------------------------
// BR9 — ranges and engagement

#[test]
fn br9_engaging_costs_the_engagement_cost_from_any_area() {
    let mut b = br8_state(
        "Rally",
        "Focus",
        "enemy 1 kind=Guard area=2 seq=0 attach=-\nenemy 2 kind=Acolyte area=quest seq=1 attach=-\n",
        &[],
    );
    b.heroes[0].points = 2;
    let l = legal(&b);
    assert!(
        l.contains(&A::Engage { hero: 0, enemy: 0 }),
        "from another Hero Area"
    );
    assert!(l.contains(&A::Engage { hero: 0, enemy: 1 }));
    b.heroes[0].points = 1;
    assert!(
        !legal(&b).contains(&A::Engage { hero: 0, enemy: 0 }),
        "cost 2 with 1 point"
    );
    b.heroes[0].points = 2;
    let mut t = VecTrace::default();
    play(&mut b, A::Engage { hero: 0, enemy: 0 }, &mut t);
    assert_eq!((b.enemies[0].area, b.heroes[0].points), (0, 0));
}

#[test]
fn br9_range_one_attacks_only_its_hero_range_two_any() {
    // Elisa has fewer cards (priority), but the Guard (range 1) in Bastian's area attacks him.
    let mut b = br8_state(
        "Rally,Rally,Rally",
        "Focus",
        "enemy 1 kind=Guard area=1 seq=0 attach=-\n",
        &[(1, 0)],
    );
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!((b.pending, b.defend.hero), (Pending::Defend, 0));
    // An Acolyte (range 2) in the Quest Area attacks the priority hero.
    let mut b = br8_state(
        "Rally,Rally,Rally",
        "Focus",
        "enemy 1 kind=Acolyte area=quest seq=0 attach=-\n",
        &[(1, 0)],
    );
    play(&mut b, A::EndPhase, &mut VecTrace::default());
    assert_eq!((b.pending, b.defend.hero), (Pending::Defend, 1));
    assert_eq!(b.enemies[0].area, QUEST);
}

// ---------------------------------------------------------------------------------------------
// BR10 — hidden information

fn sample_state(seed: u64, steps: usize) -> Beyond {
    let s = setup(&[("heroes", AxisValue::Int(2))]).unwrap();
    let mut r = GameRng::seed_from_u64(seed);
    let mut b = Beyond::new_game(&s, &mut r);
    let mut l = Vec::new();
    for _ in 0..steps {
        b.legal_actions(&mut l);
        if l.is_empty() {
            break;
        }
        let a = l[sololab::below(&mut r, l.len() as u32) as usize];
        b.apply(a, &mut r);
    }
    b
}

fn sorted(v: &[u8]) -> Vec<u8> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn br10_determinizations_differ_and_keep_what_the_players_know() {
    let mut b = sample_state(3, 25);
    assert_eq!(b.outcome(), None);
    // A Poisoned Fatigue on top of hero 1's deck is known.
    let f = b.fatigue_deck.pop().expect("a fatigue card");
    b.heroes[0].deck.push(f);
    b.heroes[0].known = 1;
    let mut seen = std::collections::HashSet::new();
    for i in 0..100 {
        let mut d = b;
        d.determinize(&mut GameRng::seed_from_u64(1000 + i));
        for h in 0..2 {
            let (x, y) = (&d.heroes[h], &b.heroes[h]);
            assert_eq!(sorted(x.deck.as_slice()), sorted(y.deck.as_slice()));
            assert_eq!(
                (x.hand, x.discard, x.persist, x.points),
                (y.hand, y.discard, y.persist, y.points)
            );
        }
        assert_eq!(
            d.heroes[0].deck.as_slice().last(),
            Some(&f),
            "the known top card stays"
        );
        assert_eq!(d.enemies, b.enemies);
        assert_eq!(d.terrain, b.terrain);
        assert_eq!(d.wound_discard, b.wound_discard);
        assert_eq!(d.response_discard, b.response_discard);
        for (p, q) in [
            (d.enemy_deck.as_slice(), b.enemy_deck.as_slice()),
            (d.wound_deck.as_slice(), b.wound_deck.as_slice()),
            (d.fatigue_deck.as_slice(), b.fatigue_deck.as_slice()),
            (d.response_deck.as_slice(), b.response_deck.as_slice()),
            (d.terrain_deck.as_slice(), b.terrain_deck.as_slice()),
        ] {
            assert_eq!(sorted(p), sorted(q), "every deck keeps its multiset");
        }
        seen.insert(d.to_position());
    }
    assert_eq!(seen.len(), 100, "100 determinizations all differ");
}

fn mcts(see_hidden: bool) -> MctsPolicy<Beyond> {
    let weights: Vec<f64> = vec![
        -1.0, -1.5, -0.5, -1.5, 0.5, 1.5, 0.1, -0.5, -3.0, -0.2, 0.3, 20.0,
    ];
    MctsPolicy::new(
        MctsConfig {
            iterations: 60,
            exploration: 0.7,
            rollout: Rollout::Random,
            rollout_depth: 20,
            see_hidden,
            ..MctsConfig::default()
        },
        weights,
    )
}

#[test]
fn br10_honest_mcts_ignores_the_hidden_order_and_the_cheat_does_not() {
    let mut honest_same = 0;
    let mut cheat_differs = 0;
    let mut states = 0;
    for seed in 0..12u64 {
        let b = sample_state(seed, 6 + seed as usize);
        if b.outcome().is_some() {
            continue;
        }
        let l = legal(&b);
        if l.len() < 2 {
            continue;
        }
        // The same state with only the hidden order changed.
        let mut other = b;
        other.shuffle_hidden(&mut GameRng::seed_from_u64(99 + seed));
        assert_ne!(other, b);
        states += 1;
        let pick = |s: &Beyond, hidden: bool| {
            mcts(hidden).choose(s, &legal(s), &mut GameRng::seed_from_u64(5))
        };
        if pick(&b, false) == pick(&other, false) {
            honest_same += 1;
        }
        if pick(&b, true) != pick(&other, true) {
            cheat_differs += 1;
        }
    }
    assert!(states >= 8, "{states} states");
    assert_eq!(
        honest_same, states,
        "honest decisions never depend on the hidden order"
    );
    assert!(
        cheat_differs > 0,
        "the cheating search does see the hidden order"
    );
}

// ---------------------------------------------------------------------------------------------
// Campaign play

#[test]
fn campaign_rewards_need_the_class_and_replace_the_body_part() {
    let c = content::builtin();
    let helm = c.item_index("Iron Helm").unwrap();
    let mut b = pos(&format!(
        "game scenario=Smoke_over_the_Village campaign=Old_Friends campaign_pos=0 heroes=2 threat=1 round=1 phase=campaign pending=equip:{} \nhero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 2 name=Elisa side=0 points=0 known=0 items=-,-,-,-,-\n",
        helm + 1
    ));
    // Bastian is a warrior: he may equip the Iron Helm; Elisa (mage) may not.
    assert_eq!(
        legal(&b),
        vec![A::Equip { hero: NO_CARD }, A::Equip { hero: 0 }]
    );
    play(&mut b, A::Equip { hero: 0 }, &mut VecTrace::default());
    assert_eq!(
        b.scenario,
        c.scenario_index("The Huntmaster's Trail").unwrap()
    );
    assert_eq!(b.phase, Phase::Hero);
    let all: Vec<u8> = b.heroes[0]
        .deck
        .as_slice()
        .iter()
        .chain(b.heroes[0].hand.as_slice())
        .copied()
        .collect();
    let head = |x: &u8| c.cards[*x as usize].body == Some(content::Body::Head);
    assert_eq!(
        all.iter().filter(|x| head(x)).count(),
        2,
        "4 Rally + 3 Stand Firm replaced by 2 Helm Guard"
    );
    assert!(all.contains(&card("Helm Guard")));
    assert_eq!(all.len(), 26 - 7 + 2);
}

// ---------------------------------------------------------------------------------------------
// Bad input

fn broken(from: &str, to: &str) -> String {
    let text = content::BUILTIN_TOML;
    assert!(text.contains(from), "{from}");
    let err = content_file::parse(&text.replacen(from, to, 1), "bad.toml").expect_err("refused");
    assert!(!err.0.contains('\n'));
    err.0
}

#[test]
fn content_errors_name_the_file_the_entry_and_the_field() {
    let e = broken(
        r#"effect = "heal", value = 1 }] }]"#,
        r#"effect = "teleport", value = 1 }] }]"#,
    );
    assert!(e.starts_with("bad.toml:"), "{e}");
    assert!(
        e.contains("hero 'Bastian'") && e.contains("field 'card[7].options[1].effects[1].effect'"),
        "{e}"
    );
    assert!(
        e.contains("unknown effect 'teleport' (valid: draw, heal"),
        "{e}"
    );
    let e = broken(
        r#"{ type = "attack", range = 1, primary = 2, secondary = 1, attack = 3 }"#,
        r#"{ type = "attack", range = 1, attack = 3 }"#,
    );
    assert!(
        e.contains("hero 'Bastian'") && e.contains("field 'card[1].options[1].primary'"),
        "{e}"
    );
    assert!(e.contains("needs a primary or a secondary cost"), "{e}");
    let e = broken(
        "enemy = \"Acolyte\"\ncolumns = [[\"attack\"], [\"poison\"]",
        "enemy = \"Boneworm\"\ncolumns = [[\"attack\"], [\"poison\"]",
    );
    assert!(
        e.contains("scenario 'Out Through the Side Entrance'"),
        "{e}"
    );
    assert!(e.contains("field 'activation[2].enemy'"), "{e}");
    assert!(
        e.contains("enemy 'Boneworm' is not in this scenario (its enemies: Guard, Acolyte)"),
        "{e}"
    );
    let e = broken(
        "columns = [[\"attack\"], [\"poison\"]",
        "columns = [[\"attack\"], [\"dance\"]",
    );
    assert!(e.contains("unknown enemy action 'dance'"), "{e}");
    let e = broken("name = \"Bastian\"\nclass", "nme = \"Bastian\"\nclass");
    assert!(e.starts_with("bad.toml:"), "{e}");
}

#[test]
fn setup_errors_list_the_valid_names_and_the_range() {
    let e = setup(&[("scenario", name("Nowhere"))]).unwrap_err();
    assert!(
        e.contains("unknown scenario 'Nowhere' (valid: Out Through the Side Entrance, "),
        "{e}"
    );
    let e = setup(&[("heroes", name("Bastian,Gandalf"))]).unwrap_err();
    assert!(
        e.contains("unknown hero 'Gandalf' (valid: Bastian, Elisa, Niffil, Olazabal"),
        "{e}"
    );
    for n in [0, 5] {
        let e = setup(&[("heroes", AxisValue::Int(n))]).unwrap_err();
        assert!(e.contains("outside the range 1-4"), "{e}");
    }
    let e = setup(&[("campaign", name("Nope"))]).unwrap_err();
    assert!(
        e.contains("unknown campaign 'Nope' (valid: none, Old Friends)"),
        "{e}"
    );
    let s = setup(&[
        ("heroes", name("Elisa,Niffil")),
        ("campaign", name("Old_Friends")),
    ])
    .unwrap();
    assert_eq!(s.heroes.len(), 2);
}

#[test]
fn position_errors_name_the_line_and_list_valid_names() {
    let e = Beyond::from_position("beyond-position 1\nhero 1 hand Excalibur\n").unwrap_err();
    assert_eq!(e.line, 2);
    assert!(
        e.message
            .contains("unknown card 'Excalibur' (valid: Wound:_Gash"),
        "{}",
        e.message
    );
    let e = Beyond::from_position("beyond-position 1\ngame heroes=5\n").unwrap_err();
    assert!(e.message.contains("not in 1..=4"), "{}", e.message);
}

#[test]
fn a_pending_decision_the_state_cannot_go_on_from_is_refused_at_its_line() {
    // Positions the reader took but `play` panicked on: a decision belongs to one phase, and
    // what it refers to must exist. The empty state: one hero (hand size 7, empty hand), no
    // enemy, the tutorial (not a campaign). The `game` line is line 2, `cursor` line 3.
    let hero_phase = "is a decision of the hero phase, not of phase=";
    // A decision of the Enemy Phase may be met in the Hero Phase (the rules' tests take one
    // alone so), but not elsewhere; a Hero Phase decision only in its phase.
    for (text, line, want) in [
        (
            "game pending=equip:1",
            2,
            "pending=equip:1 is a decision of the campaign phase, not of phase=hero".to_string(),
        ),
        (
            "game phase=draw pending=pick_heal:255:3",
            2,
            "pending=pick_heal:255:3 is a decision of the enemy phase, not of phase=draw".into(),
        ),
        (
            "game phase=over",
            2,
            "phase=over goes with a result other than 0, and only then".into(),
        ),
        (
            "game phase=enemy pending=attack",
            2,
            format!("pending=attack {hero_phase}enemy"),
        ),
        (
            "game phase=enemy",
            2,
            "phase=enemy waits on a decision, and pending=none gives it none (the enemy phase's are defend, pick_target, intimidate, redirect and pick_heal)".into(),
        ),
        (
            "game pending=intimidate:1:0",
            2,
            "pending=intimidate:1:0: the last number counts the cards still to discard, at least 1".into(),
        ),
        (
            "game phase=enemy pending=intimidate:1:2",
            2,
            "pending=intimidate:1:2: hero 1 has nothing to discard (no hand card but Wounds and Fatigue, no Persistent card)".into(),
        ),
        (
            "game pending=pick_heal:255:3",
            2,
            "pending=pick_heal:255:3: the candidates (bit S-1 for enemy slot S) must be enemies in play with a card attached".into(),
        ),
        (
            "game phase=enemy heroes=2 pending=pick_target:4",
            2,
            "pending=pick_target:4: the tied heroes (bit H-1 for hero H) must be some of the game's 2".into(),
        ),
        (
            "game phase=enemy pending=redirect:1",
            2,
            "pending=redirect:1: hero 1 has no Ally to take it".into(),
        ),
        (
            "game phase=draw pending=discard_down:1",
            2,
            "pending=discard_down:1: hero 1 holds no more than the hand size of 7 (or only Wounds and Fatigue), so nothing to discard down".into(),
        ),
        (
            "game phase=campaign pending=equip:1",
            2,
            "pending=equip:1 is a step between the scenarios of a campaign, and campaign=-".into(),
        ),
        (
            "game campaign=Old_Friends campaign_pos=2 phase=campaign pending=side:1",
            2,
            "pending=side:1: campaign_pos=2 is the campaign's last scenario, so no scenario follows".into(),
        ),
        (
            "game pending=attack\nenemy 1 kind=Guard area=quest seq=0 attach=-\nattack hero=1 target=1 total=0 symbols=0 cards=Longsword_Slash@2.1",
            2,
            "attack cards: Longsword_Slash@2.1 is not a card of one of the game's 1 heroes with that option".into(),
        ),
        (
            "game phase=enemy heroes=2 pending=pick_target:3\ncursor followers=4096",
            3,
            "followers=4096: a set of enemy slots (bit S-1 for slot S, S 1..=12)".into(),
        ),
        (
            "game phase=enemy heroes=2 pending=pick_target:3\ncursor rank=1,3,2,4",
            3,
            "rank=1,3,2,4: every hero 1-4 once, the game's 2 first".into(),
        ),
    ] {
        let e = Beyond::from_position(&format!("beyond-position 1\n{text}\n")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (line, want.as_str()), "{text}");
    }
    // The same decisions where they are real: an Intimidate with a card to discard, a tie
    // between two heroes, a side choice with a scenario to follow.
    let b = pos("game phase=enemy pending=intimidate:1:1\nhero 1 hand Longsword_Slash\n");
    assert_eq!(
        legal(&b),
        vec![A::Discard {
            card: card("Longsword Slash")
        }]
    );
    let b = pos("game phase=enemy heroes=2 pending=pick_target:3\n");
    assert_eq!(
        legal(&b),
        vec![A::Target { hero: 0 }, A::Target { hero: 1 }]
    );
    let b = pos("game campaign=Old_Friends campaign_pos=1 phase=campaign pending=side:1\n");
    assert_eq!(
        legal(&b),
        vec![A::Side { alt: false }, A::Side { alt: true }]
    );
}

#[test]
fn bad_content_on_the_command_line_exits_2_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("beyond-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.toml");
    std::fs::write(
        &path,
        content::BUILTIN_TOML.replacen(r#"effect = "heal""#, r#"effect = "teleport""#, 1),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sololab"))
        .args(["play", "beyond", "--policy", "random", "--set"])
        .arg(format!("content={}", path.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("unknown effect 'teleport'"), "{err}");
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_option_of_every_card_is_a_known_action_type() {
    let c = content::builtin();
    for h in &c.heroes {
        assert_eq!(h.deck.len(), 26, "{}", h.name);
    }
    assert_eq!(c.heroes.len(), 6);
    assert_eq!(c.response.len(), 42);
    assert_eq!(c.wound_deck.len(), 18);
    assert_eq!(c.fatigue_deck.len(), 12);
    let fire = &c.cards[card("Fire Spell") as usize].opts[0];
    assert_eq!(
        (fire.act, fire.primary, fire.secondary),
        (ActType::Attack, None, Some(1))
    );
}

// ---------------------------------------------------------------------------------------------
// Rules without a numbered case: doors and portcullises, allies taking hits, poison, summon,
// the quest phase's spawns by threat, empty decks.

const SEVEN_RALLY: &str = "Rally,Rally,Rally,Rally,Rally,Rally,Rally";

#[test]
fn doors_open_only_above_their_value_plus_a_response_card() {
    // Side Door: value 4 with one hero. Each attempt draws a Response card (value 2 here).
    let door_state = |points: u8| {
        pos(&format!(
            "{}{}terrain_deck Rubble\nwound_deck Wound:_Gash\n{}",
            game(1, ""),
            hero(1, "Bastian", points, SEVEN_RALLY, "Rally"),
            responses(&[(1, 2), (1, 2)])
        ))
    };
    let open = |points: u8| A::OpenTerrain {
        hero: 0,
        terrain: 0,
        points,
    };
    let mut b = door_state(12);
    let l = legal(&b);
    // Offered: 5 (above the value) up to 4 + 1 + the largest Response value.
    assert!(!l.contains(&open(4)), "never above the value: not offered");
    assert!(l.contains(&open(5)) && l.contains(&open(7)));
    let mut t = VecTrace::default();
    play(&mut b, open(6), &mut t);
    assert_eq!(b.terrain.len(), 1, "6 against 4 + 2: a tie fails");
    assert_eq!(b.heroes[0].points, 6, "the points are spent anyway");
    assert!(traced(&t, "failed (a tie fails)"), "{:?}", t.0);
    let mut b = door_state(12);
    play(&mut b, open(7), &mut t);
    assert!(b.terrain.is_empty(), "7 against 4 + 2 opens the door");
    assert_eq!(b.response_discard.len(), 1, "one Response card per attempt");
}

#[test]
fn terrain_needs_no_enemy_in_the_area_or_range_two_and_obstacles_take_no_attack() {
    let ls = card("Longsword Slash");
    let state = |enemy_area: &str, terrain: &str| {
        pos(&format!(
            "{}terrain {terrain}\n{}enemy 1 kind=Guard area={enemy_area} seq=0 attach=-\nwound_deck Wound:_Gash\n",
            game(1, ""),
            hero(1, "Bastian", 9, SEVEN_RALLY, "Longsword_Slash"),
        ))
    };
    let on_door = A::Attack {
        hero: 0,
        card: ls,
        opt: 0,
        target: sololab::games::beyond::state::TERRAIN_TARGET,
    };
    let l = legal(&state("quest", "Side_Door"));
    assert!(l.contains(&on_door), "unengaged: range 1 reaches the door");
    assert!(l.iter().any(|a| matches!(a, A::OpenTerrain { .. })));
    let l = legal(&state("1", "Side_Door"));
    assert!(!l.contains(&on_door), "engaged: the door is out of range 1");
    assert!(
        !l.iter().any(|a| matches!(a, A::OpenTerrain { .. })),
        "engaged heroes do not interact with terrain"
    );
    let l = legal(&state("quest", "Portcullis"));
    assert!(l.contains(&on_door), "a portcullis may be attacked");
    let l = legal(&state("quest", "Rubble"));
    assert!(!l.contains(&on_door), "an obstacle may not be attacked");
    assert!(l.iter().any(|a| matches!(a, A::OpenTerrain { .. })));
}

#[test]
fn an_attack_on_a_door_beats_its_defense_plus_a_response_card() {
    let ls = card("Longsword Slash");
    // Side Door defense 3 with one hero; two Longsword Slashes (the second for its Secondary
    // cost): attack 6.
    for (resp_value, opened) in [(2u8, true), (3, false)] {
        let mut b = pos(&format!(
            "{}{}terrain_deck Rubble\nwound_deck Wound:_Gash\n{}",
            game(1, ""),
            hero(
                1,
                "Bastian",
                5,
                SEVEN_RALLY,
                "Longsword_Slash,Longsword_Slash"
            ),
            responses(&[(1, resp_value)])
        ));
        let mut t = VecTrace::default();
        let door = sololab::games::beyond::state::TERRAIN_TARGET;
        attack(&mut b, &mut t, 0, ls, 0, door);
        let add = A::AddCard {
            hero: 0,
            card: ls,
            opt: 0,
        };
        play(&mut b, add, &mut t);
        assert_eq!(b.heroes[0].points, 2, "Primary 2 + Secondary 1");
        play(&mut b, A::ResolveAttack, &mut t);
        assert_eq!(
            b.terrain.is_empty(),
            opened,
            "6 against 3 + {resp_value}: {:?}",
            t.0
        );
    }
}

/// One hero with an ally (`Wolf Companion`: defense 1, health 3, or `Guardian Spirit`:
/// defense 2, health 2) and an engaged `enemy`; the Response cards `draws`.
fn ally_state(ally: &str, enemy: &str, draws: &[(u8, u8)]) -> Beyond {
    pos(&format!(
        "{}{}hero 1 persist 1 card={ally} owner=1 opt=1 uses=0 attach=-\nenemy 1 kind={enemy} area=1 seq=0 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\nfatigue_deck Fatigue:_Weary\n{}",
        game(1, ""),
        hero(1, "Bastian", 0, "Plate_Guard", SEVEN_RALLY),
        responses(draws)
    ))
}

#[test]
fn an_ally_takes_the_hit_instead_of_the_hero_and_dies_below_one_health() {
    // Guard, column 1: "attack / engage"; attack 3 + 1 against the Wolf's defense 1: a Wound on
    // the Wolf (health 3 - 1), nothing in the hero's hand.
    let mut b = ally_state("Wolf_Companion", "Guard", &[(1, 0), (1, 1)]);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.pending, Pending::Defend);
    assert!(legal(&b).contains(&A::AllyTakes { ally: 0 }));
    play(&mut b, A::AllyTakes { ally: 0 }, &mut t);
    assert_eq!(b.heroes[0].persist[0].attach.len(), 1, "{:?}", t.0);
    assert_eq!(b.tally.wounds_taken, 0);
    assert!(
        b.heroes[0]
            .hand
            .as_slice()
            .iter()
            .all(|&c| c == card("Rally"))
    );
    // Guardian Spirit (health 2) with a Gash already: the second Wound kills it.
    let mut b = ally_state("Guardian_Spirit", "Guard", &[(1, 0), (1, 1)]);
    b.heroes[0].persist[0].attach.push(card("Wound: Gash"));
    play(&mut b, A::EndPhase, &mut t);
    play(&mut b, A::AllyTakes { ally: 0 }, &mut t);
    assert_eq!(
        b.heroes[0].persist[0].card, NO_CARD,
        "the ally is discarded"
    );
    assert!(traced(&t, "the ally Guardian Spirit is discarded"));
    // A tie blocks: Acolyte attack 2 + 0 against Guardian Spirit's defense 2.
    let mut b = ally_state("Guardian_Spirit", "Acolyte", &[(1, 0), (1, 0)]);
    play(&mut b, A::EndPhase, &mut t);
    play(&mut b, A::AllyTakes { ally: 0 }, &mut t);
    assert!(b.heroes[0].persist[0].attach.is_empty(), "a tie blocks");
}

#[test]
fn poison_puts_a_known_fatigue_on_top_that_determinization_keeps() {
    // Acolyte, column 2: "poison". The hand is full (7), so the Draw Phase draws nothing.
    let weary = card("Fatigue: Weary");
    let mut b = pos(&format!(
        "{}{}enemy 1 kind=Acolyte area=quest seq=0 attach=-\nwound_deck Wound:_Gash\nfatigue_deck Fatigue:_Slow,Fatigue:_Weary\n{}",
        game(1, ""),
        hero(
            1,
            "Bastian",
            0,
            "Plate_Guard,Plate_Guard,Longsword_Slash,Rally,Plate_Guard",
            SEVEN_RALLY
        ),
        responses(&[(2, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(traced(&t, "Acolyte poisons Bastian"), "{:?}", t.0);
    assert_eq!(b.heroes[0].deck.len(), 6);
    assert_eq!(b.heroes[0].deck.as_slice().last(), Some(&weary), "on top");
    assert_eq!(b.heroes[0].known, 1, "the players know it");
    for i in 0..40 {
        let mut d = b;
        d.determinize(&mut GameRng::seed_from_u64(i));
        assert_eq!(d.heroes[0].deck.as_slice().last(), Some(&weary), "seed {i}");
        assert_eq!(
            sorted(d.heroes[0].deck.as_slice()),
            sorted(b.heroes[0].deck.as_slice())
        );
    }
}

#[test]
fn summon_places_the_named_enemy_in_the_summoners_area_and_it_waits_a_phase() {
    // The Huntmaster, column 3: "summon Orc Warrior / attack"; only enemies in play when the
    // Enemy Phase began activate.
    let mut b = pos(&format!(
        "game scenario=The_Huntmaster's_Trail heroes=1 threat=1 round=1 phase=hero pending=none\n{}enemy 1 kind=Orc_Huntmaster area=quest seq=0 attach=-\nenemy_deck -\nwound_deck Wound:_Gash\n{}",
        hero(1, "Bastian", 0, "Plate_Guard", SEVEN_RALLY),
        responses(&[(3, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(
        traced(&t, "Orc Huntmaster summons Orc Warrior into the Quest Area"),
        "{:?}",
        t.0
    );
    let names: Vec<&str> = (0..12)
        .filter(|&e| b.enemies[e].alive())
        .map(|e| b.ename(e))
        .collect();
    assert_eq!(names, ["Orc Huntmaster", "Orc Warrior"]);
    assert_eq!(b.enemies[1].area, QUEST);
    // The Enemy Deck was empty: the summoned enemy comes from outside it (and the Quest
    // Phase's spawn found nothing to draw).
    assert!(b.enemy_deck.is_empty());
    assert!(
        !traced(&t, "Orc Warrior activates"),
        "not eligible this phase"
    );
}

#[test]
fn the_quest_phase_spawns_by_the_threat_row_and_nothing_from_an_empty_deck() {
    // The tutorial's rows: threat 0 -> 0 enemies, 2 -> 1, 6 -> 2 (one hero).
    for (threat, deck, spawned) in [
        (1u8, "Guard,Guard,Guard", 0usize),
        (2, "Guard,Guard,Guard", 1),
        (5, "Guard,Guard,Guard", 1),
        (6, "Guard,Guard,Guard", 2),
        (6, "Acolyte", 1),
        (6, "-", 0),
    ] {
        let mut b = pos(&format!(
            "game scenario={TUTORIAL} heroes=1 threat={threat} round=1 phase=hero pending=none\nterrain Side_Door\n{}enemy_deck {deck}\nwound_deck Wound:_Gash\n",
            hero(1, "Bastian", 0, "Plate_Guard", SEVEN_RALLY),
        ));
        let before = b.enemy_deck.len();
        let mut t = VecTrace::default();
        play(&mut b, A::EndPhase, &mut t);
        let alive = b.enemies.iter().filter(|e| e.alive()).count();
        assert_eq!(alive, spawned, "threat {threat}, deck {deck}: {:?}", t.0);
        assert_eq!(before - b.enemy_deck.len(), spawned);
        assert!(
            b.enemies
                .iter()
                .filter(|e| e.alive())
                .all(|e| e.area == QUEST)
        );
        assert_eq!(b.threat, threat + 1, "the next round moved the threat");
        assert_eq!(b.outcome(), None);
    }
}

// ---------------------------------------------------------------------------------------------
// Planning policies: an attack is one plan, and greedy never reads a hidden order

/// The shipped `greedy` strategy for Beyond.
fn greedy() -> Box<dyn Policy<Beyond>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies");
    sololab::Strategy::named("greedy", &dir)
        .expect("strategies/greedy.toml")
        .build::<Beyond>()
        .expect("greedy builds for beyond")
}

#[test]
fn an_attack_is_one_plan_from_its_first_card_to_its_resolution() {
    use sololab::PlanStep;
    let ls = card("Longsword Slash");
    let mut b = br2_state("Longsword_Slash,Longsword_Slash", "-", &[(1, 0)]);
    let first = A::Attack {
        hero: 0,
        card: ls,
        opt: 0,
        target: 0,
    };
    assert_eq!(b.plan_step(first), PlanStep::Prefix(0));
    assert_eq!(b.plan_step(A::EndPhase), PlanStep::Single);
    let mut t = VecTrace::default();
    play(&mut b, first, &mut t);
    let more = A::AddCard {
        hero: 0,
        card: ls,
        opt: 0,
    };
    assert_eq!(b.plan_step(more), PlanStep::Prefix(0));
    assert_eq!(b.plan_step(A::ResolveAttack), PlanStep::Finish(0));
}

/// The Huntmaster's Trail is won when the Huntmaster is defeated: Bastian (5 points, a Longsword
/// Slash of 3 and a Plate Guard) faces it engaged with him, two Gash wounds attached (defense 2,
/// health 3 - 2 = 1 left), the Enemy Deck empty; `draws` are the Response cards in drawing order.
fn wounded_huntmaster(draws: &[(u8, u8)]) -> Beyond {
    pos(&format!(
        "game scenario=The_Huntmaster's_Trail heroes=1 threat=1 round=1 phase=hero pending=none\nhero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 deck Plate_Guard,Plate_Guard\nhero 1 hand Longsword_Slash,Plate_Guard\nenemy 1 kind=Orc_Huntmaster area=1 seq=0 attach=Wound:_Gash,Wound:_Gash\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        responses(draws)
    ))
}

/// Every Response card left has value 0, so the attack of 3 against defense 2 kills the
/// Huntmaster and wins in any order of the deck. Scored alone, the `Attack` step only spends a card
/// and 2 points, and a Draw scores higher (greedy never attacked before attacks were plans).
#[test]
fn greedy_attacks_when_the_attack_surely_wins() {
    let b = wounded_huntmaster(&[(1, 0), (2, 0), (3, 0)]);
    let l = legal(&b);
    let choice = greedy().choose(&b, &l, &mut rng());
    assert!(matches!(choice, A::Attack { target: 0, .. }), "{choice:?}");
}

/// Greedy looks ahead on determinized copies (`Game::HIDDEN_INFORMATION`): which Response card
/// is on top is hidden, so its choice is the same in both orders of a deck of a 0 (the attack
/// of 3 against 2 + 0 wins) and a 3 (3 against 2 + 3: a miss). Reading the true order, it
/// attacked only when the 0 was on top.
#[test]
fn greedy_never_reads_the_hidden_order_of_a_deck() {
    let choices: Vec<A> = [[(1, 0), (1, 3)], [(1, 3), (1, 0)]]
        .iter()
        .map(|draws| {
            let b = wounded_huntmaster(draws);
            let l = legal(&b);
            greedy().choose(&b, &l, &mut rng())
        })
        .collect();
    assert_eq!(
        choices[0], choices[1],
        "the choice depends on the hidden order"
    );
    assert!(
        matches!(choices[0], A::Attack { target: 0, .. }),
        "{choices:?}"
    );
}

/// The Huntmaster's Trail with the Huntmaster (enemy 1) and an Orc Warrior (enemy 2) in play in
/// the given areas (`1`: Bastian's Hero Area, `quest`), an Orc Archer left in the Enemy Deck;
/// Bastian holds two Longsword Slashes (3 + 3) and the next Response card is a 1 of value 0.
fn trail_state(huntmaster_attach: &str, warrior_attach: &str, areas: (&str, &str)) -> Beyond {
    pos(&format!(
        "game scenario=The_Huntmaster's_Trail heroes=1 threat=1 round=1 phase=hero pending=none\n{}enemy 1 kind=Orc_Huntmaster area={} seq=0 attach={huntmaster_attach}\nenemy 2 kind=Orc_Warrior area={} seq=1 attach={warrior_attach}\nenemy_deck Orc_Archer\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        hero(
            1,
            "Bastian",
            5,
            "Plate_Guard,Plate_Guard",
            "Longsword_Slash,Longsword_Slash"
        ),
        areas.0,
        areas.1,
        responses(&[(1, 0)])
    ))
}

#[test]
fn the_huntmasters_trail_is_won_when_the_huntmaster_falls_whatever_else_is_left() {
    // CONTENT.md, "The Huntmaster's Trail": won when every copy of the named enemy
    // (`win = "enemy_defeated"`, `win_enemy = "Orc Huntmaster"`) is defeated, although an Orc
    // Warrior is in play and an Orc Archer still in the Enemy Deck.
    let ls = card("Longsword Slash");
    let mut b = trail_state("Wound:_Gash,Wound:_Gash", "-", ("1", "quest"));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 0);
    add(&mut b, &mut t, 0, ls, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(!b.enemies[0].alive(), "{:?}", t.0);
    assert!(b.enemies[1].alive());
    assert_eq!(b.enemy_deck.len(), 1);
    assert_eq!(b.outcome(), Some(Outcome::Won), "{:?}", t.0);
    assert!(traced(&t, "WON: The Huntmaster's Trail"), "{:?}", t.0);
    // Defeating another orc while the Huntmaster lives wins nothing.
    let mut b = trail_state("-", "Wound:_Gash", ("quest", "1"));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 1);
    add(&mut b, &mut t, 0, ls, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(!b.enemies[1].alive(), "{:?}", t.0);
    assert_eq!(b.outcome(), None, "{:?}", t.0);
}

#[test]
fn a_named_enemy_win_needs_an_enemy_of_the_scenarios_deck() {
    let e = broken(
        "win = \"enemy_defeated\"\nwin_enemy = \"Orc Huntmaster\"",
        "win = \"enemy_defeated\"\nwin_enemy = \"Guard\"",
    );
    assert!(e.starts_with("bad.toml:"), "{e}");
    assert!(
        e.contains("scenario 'The Huntmaster's Trail'") && e.contains("field 'win_enemy'"),
        "{e}"
    );
    assert!(
        e.contains("'Guard' is not in the scenario's enemy deck"),
        "{e}"
    );
    let e = broken(
        "win = \"enemy_defeated\"\nwin_enemy = \"Orc Huntmaster\"",
        "win = \"enemy_defeated\"",
    );
    assert!(
        e.contains("field 'win_enemy'") && e.contains("needs it"),
        "{e}"
    );
}

#[test]
fn the_hero_phase_ends_at_the_labs_action_cap() {
    // CONTENT.md, "Action cap": at most 10 + 10 x heroes new actions in one Hero Phase (the
    // lab's guard against a phase that never ends); then only ending the phase is offered.
    use sololab::games::beyond::actions::action_cap;
    assert_eq!((action_cap(1), action_cap(2), action_cap(4)), (20, 30, 50));
    let setup = Beyond::resolve_setup(&SetupValues::new()).unwrap();
    let mut b = Beyond::new_game(&setup, &mut GameRng::seed_from_u64(1));
    assert_eq!((b.phase, b.n_heroes), (Phase::Hero, 2));
    b.actions = 29;
    assert!(legal(&b).len() > 1, "{:?}", legal(&b));
    b.actions = 30;
    assert_eq!(legal(&b), vec![A::EndPhase]);
}

// ---------------------------------------------------------------------------------------------
// Legal lists, one condition at a time (each test names the rule it pins; written for the
// mutants of `actions.rs` that no case caught: results/mutants/beyond.md)

/// Bastian (hero 1: Longsword Slash, range 1, and Charge, range 2, both Attack options with a
/// Primary cost he can pay) beside Niffil (hero 2), who attacks the Side Door (`t1`) with a
/// Throwing Knife; `enemies` are enemy position lines.
fn door_attack(enemies: &str) -> Beyond {
    door_attack_with(5, enemies)
}

/// [`door_attack`] with Bastian holding `points` action points.
fn door_attack_with(points: u8, enemies: &str) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points={points} known=0 items=-,-,-,-,-\nhero 1 hand Longsword_Slash,Charge\nhero 2 name=Niffil side=0 points=5 known=0 items=-,-,-,-,-\nhero 2 hand Dagger_Stab\n{enemies}attack hero=2 target=t1 total=2 symbols=0 cards=Throwing_Knife@2.1\n",
        game(2, "").replace("pending=none", "pending=attack"),
    ))
}

/// Whether Bastian may add each of his two cards to the attack on the door: (Longsword Slash,
/// Charge).
fn door_aids(b: &Beyond) -> (bool, bool) {
    let l = legal(b);
    let offered = |name: &str| {
        l.contains(&A::AddCard {
            hero: 0,
            card: card(name),
            opt: 0,
        })
    };
    (offered("Longsword Slash"), offered("Charge"))
}

#[test]
fn joining_an_attack_on_a_door_needs_range_two_only_while_engaged() {
    // Doors and Portcullises: a door is within range 1 of a hero with no enemy in their Hero
    // Area, else only range 2 reaches it; an enemy in another hero's area does not engage him.
    assert_eq!(door_aids(&door_attack("")), (true, true), "not engaged");
    assert_eq!(
        door_aids(&door_attack("enemy 1 kind=Guard area=1 seq=0 attach=-\n")),
        (false, true),
        "engaged: range 2 only"
    );
    assert_eq!(
        door_aids(&door_attack("enemy 1 kind=Guard area=2 seq=0 attach=-\n")),
        (true, true),
        "the enemy engages Niffil, not Bastian"
    );
    assert_eq!(
        door_aids(&door_attack(
            "enemy 1 kind=Guard area=quest seq=0 attach=-\n"
        )),
        (true, true),
        "an enemy in the Quest Area engages nobody"
    );
}

/// Bastian with Stand Firm (a Special option, range 2, cost 1, that stays as a persistent card)
/// in hand and `persist` as his persistent position lines.
fn stand_firm(persist: &str) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 hand Stand_Firm\n{persist}",
        game(1, ""),
    ))
}

#[test]
fn a_persistent_card_takes_the_first_free_slot_and_is_not_offered_without_one() {
    // Persistent cards stay in the target Hero Area, in a free slot (three a hero: CONTENT.md).
    let sf = card("Stand Firm");
    let sf_play = A::Play {
        hero: 0,
        card: sf,
        opt: 0,
        target: 0,
    };
    let slots = |b: &Beyond| -> Vec<u8> { b.heroes[0].persist.iter().map(|p| p.card).collect() };
    let mut t = VecTrace::default();
    let mut b = stand_firm("");
    play(&mut b, sf_play, &mut t);
    assert_eq!(slots(&b), vec![sf, NO_CARD, NO_CARD], "{:?}", t.0);
    let blessing = card("Blessing");
    let mut b = stand_firm("hero 1 persist 1 card=Blessing owner=1 opt=1 uses=2 attach=-\n");
    play(&mut b, sf_play, &mut t);
    assert_eq!(slots(&b), vec![blessing, sf, NO_CARD], "{:?}", t.0);
    let mut b = stand_firm(
        "hero 1 persist 1 card=Blessing owner=1 opt=1 uses=2 attach=-\nhero 1 persist 3 card=Blessing owner=1 opt=1 uses=2 attach=-\n",
    );
    play(&mut b, sf_play, &mut t);
    assert_eq!(slots(&b), vec![blessing, sf, blessing], "{:?}", t.0);
    let b = stand_firm(
        "hero 1 persist 1 card=Blessing owner=1 opt=1 uses=2 attach=-\nhero 1 persist 2 card=Blessing owner=1 opt=1 uses=2 attach=-\nhero 1 persist 3 card=Blessing owner=1 opt=1 uses=2 attach=-\n",
    );
    assert!(
        !legal(&b).contains(&sf_play),
        "no free slot: {:?}",
        legal(&b)
    );
}

#[test]
fn a_card_is_offered_when_its_cost_equals_the_points_left() {
    // Attacking: aiding pays the Primary cost; a card costing exactly the points left can be
    // paid ("ties go against the spender" is about comparisons of values, not about paying).
    assert_eq!(
        door_aids(&door_attack_with(2, "")),
        (true, false),
        "2 points: Slash (2) only"
    );
    assert_eq!(
        door_aids(&door_attack_with(3, "")),
        (true, true),
        "3 points: Charge (3) too"
    );
    assert_eq!(
        door_aids(&door_attack_with(1, "")),
        (false, false),
        "1 point: neither"
    );
}

/// Bastian cycling (`pending=cycle:1:COUNT`, COUNT cards cycled so far) with `hand`.
fn cycling(count: u8, hand: &str) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally\nhero 1 hand {hand}\n",
        game(1, "").replace("pending=none", &format!("pending=cycle:1:{count}")),
    ))
}

#[test]
fn cycling_may_stop_only_after_a_card_and_never_offers_wounds() {
    // Cycle: discard cards of the player's choice and redraw as many; the lab asks for one card
    // at a time, and "done" is offered once at least one card went (the action order in
    // `actions.rs`'s module docs); Wounds and Fatigue are never discarded (Golden Rules).
    let ls = card("Longsword Slash");
    let pg = card("Plate Guard");
    let b = cycling(0, "Longsword_Slash,Plate_Guard,Wound:_Gash");
    assert_eq!(
        legal(&b),
        vec![A::CycleCard { card: ls }, A::CycleCard { card: pg }],
        "no card cycled yet: no Done, and the Wound is not offered"
    );
    let b = cycling(1, "Longsword_Slash,Wound:_Gash");
    assert_eq!(
        legal(&b),
        vec![A::CycleDone, A::CycleCard { card: ls }],
        "one card cycled: Done first"
    );
    let b = cycling(0, "Wound:_Gash");
    assert_eq!(legal(&b), vec![A::CycleDone], "nothing to cycle: only Done");
}

/// An Enemy Attack on hero `defender` (1-based) by a Guard in their area, in the defense window
/// (`pending=defend`, `commit` as the position's `defend` fields after `enemy=1`): Bastian
/// (hero 1) and Elisa (hero 2) with the hands, points and persistent lines given.
fn defending(
    defender: u8,
    commit: &str,
    bastian: (u8, &str),
    elisa: (u8, &str),
    persist: &str,
) -> Beyond {
    pos(&format!(
        "{}hero 1 name=Bastian side=0 points={} known=0 items=-,-,-,-,-\nhero 1 hand {}\nhero 2 name=Elisa side=0 points={} known=0 items=-,-,-,-,-\nhero 2 hand {}\n{persist}enemy 1 kind=Guard area={defender} seq=0 attach=-\ndefend hero={defender} enemy=1 {commit}\n",
        game(2, "").replace("pending=none", "pending=defend"),
        bastian.0,
        bastian.1,
        elisa.0,
        elisa.1,
    ))
}

/// The `Defend` actions offered, as (hero, card name) pairs in the list's order.
fn defends(b: &Beyond) -> Vec<(u8, String)> {
    let c = content::builtin();
    legal(b)
        .into_iter()
        .filter_map(|a| match a {
            A::Defend { hero, card, .. } => Some((hero, c.cards[card as usize].name.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn defense_cards_come_from_the_defender_and_from_others_in_range_two() {
    // Enemy Attacks: before the response card the heroes commit Defense options (and
    // enemy-attack Reactions); another hero aids only with range 2, paying the cost from their
    // points (a cost equal to the points is paid); Wound/Fatigue defense modifiers only from
    // the defender's own hand.
    let free = "total=0 spent=0 cards=-";
    let b = defending(
        1,
        free,
        (1, "Plate_Guard,Wound:_Bruise"),
        (1, "Flame_Wall,Blink,Wound:_Bruise"),
        "",
    );
    let got = defends(&b);
    let want: Vec<(u8, String)> = vec![
        (0, "Plate Guard".into()),
        (0, "Wound: Bruise".into()),
        (1, "Flame Wall".into()),
    ];
    let mut sorted = got.clone();
    sorted.sort();
    let mut want_sorted = want.clone();
    want_sorted.sort();
    assert_eq!(
        sorted, want_sorted,
        "Blink is range 1, Elisa's Bruise is not hers to defend with"
    );
    // Flame Wall costs 1: not with 0 points.
    let b = defending(1, free, (1, "Plate_Guard"), (0, "Flame_Wall"), "");
    assert_eq!(defends(&b), vec![(0, "Plate Guard".to_string())]);
    // Elisa defending: her Reaction (Blink, timing enemy_attack, cost 1) is offered.
    let b = defending(2, free, (0, "Longsword_Slash"), (1, "Blink"), "");
    assert_eq!(defends(&b), vec![(1, "Blink".to_string())]);
}

#[test]
fn only_an_ally_with_nothing_committed_yet_may_take_the_hit() {
    // Allies: an ally may take a hit instead of the hero, decided before the hero commits
    // anything; a persistent card that is not an ally cannot, nor can an empty slot.
    let persist = "hero 1 persist 1 card=Guardian_Spirit owner=1 opt=1 uses=0 attach=-\nhero 1 persist 2 card=Stand_Firm owner=1 opt=1 uses=2 attach=-\n";
    let takes = |b: &Beyond| -> Vec<A> {
        legal(b)
            .into_iter()
            .filter(|a| matches!(a, A::AllyTakes { .. }))
            .collect()
    };
    let b = defending(
        1,
        "total=0 spent=0 cards=-",
        (2, "Plate_Guard"),
        (0, "-"),
        persist,
    );
    assert_eq!(takes(&b), vec![A::AllyTakes { ally: 0 }]);
    let b = defending(
        1,
        "total=1 spent=1 cards=-",
        (1, "Plate_Guard"),
        (0, "-"),
        persist,
    );
    assert_eq!(takes(&b), vec![], "points spent on defense");
    let b = defending(
        1,
        "total=2 spent=0 cards=Plate_Guard@1.1",
        (2, "Plate_Guard"),
        (0, "-"),
        persist,
    );
    assert_eq!(takes(&b), vec![], "a card committed");
}

#[test]
fn a_poison_or_intimidate_may_go_to_an_ally_only() {
    // Allies take a Poison or an Intimidate instead of their hero when the player chooses
    // (CONTENT.md, "Allies"); the hero's other persistent cards and empty slots are not offered.
    let b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=2 known=0 items=-,-,-,-,-\nhero 1 hand Plate_Guard\nhero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses=2 attach=-\nhero 1 persist 2 card=Guardian_Spirit owner=1 opt=1 uses=0 attach=-\n",
        game(1, "").replace("pending=none", "pending=redirect:1"),
    ));
    assert_eq!(
        legal(&b),
        vec![A::Redirect { ally: NO_CARD }, A::Redirect { ally: 1 }]
    );
}

#[test]
fn a_choice_among_tied_heroes_or_healed_enemies_offers_exactly_the_candidates() {
    // Target Priority: when heroes tie, the players choose among the tied ones; Heal: the
    // players choose among the enemies the heal may reach. The candidates are bit masks.
    let heroes = |mask: u8| {
        pos(&format!(
            "{}{}{}{}enemy 1 kind=Guard area=quest seq=0 attach=-\n",
            game(3, "").replace("pending=none", &format!("pending=pick_target:{mask}")),
            hero(1, "Bastian", 2, "-", "Plate_Guard"),
            hero(2, "Elisa", 2, "-", "Flame_Wall"),
            hero(3, "Niffil", 2, "-", "Dagger_Stab"),
        ))
    };
    assert_eq!(legal(&heroes(0b010)), vec![A::Target { hero: 1 }]);
    assert_eq!(
        legal(&heroes(0b101)),
        vec![A::Target { hero: 0 }, A::Target { hero: 2 }]
    );
    let heal = |mask: u16| {
        pos(&format!(
            "{}{}enemy 1 kind=Guard area=quest seq=0 attach=Wound:_Gash\nenemy 2 kind=Guard area=quest seq=1 attach=-\nenemy 3 kind=Guard area=quest seq=2 attach=Wound:_Gash\n",
            game(1, "").replace("pending=none", &format!("pending=pick_heal:{mask}:1")),
            hero(1, "Bastian", 2, "-", "Plate_Guard"),
        ))
    };
    assert_eq!(legal(&heal(0b100)), vec![A::Heal { enemy: 2 }]);
    assert_eq!(
        legal(&heal(0b101)),
        vec![A::Heal { enemy: 0 }, A::Heal { enemy: 2 }]
    );
}

/// Hero Phase positions of two heroes, Bastian (hero 1, `points`, `hand`, `persist` lines) and
/// Olazabal (hero 2: Guardian Spirit, an Ally of range 1 and cost 2, and 3 points), with the
/// Side Door in the Quest Area and no enemy; `content` is the position's content line.
fn hero_phase(content: &str, points: u8, hand: &str, persist: &str) -> Beyond {
    let b: Beyond = common::parse(&format!(
        "beyond-position 1\ncontent {content}\n{}hero 1 name=Bastian side=0 points={points} known=0 items=-,-,-,-,-\nhero 1 hand {hand}\n{persist}hero 2 name=Olazabal side=0 points=3 known=0 items=-,-,-,-,-\nhero 2 hand Guardian_Spirit\n",
        game(2, ""),
    ));
    common::assert_round_trip(&b);
    b
}

#[test]
fn a_hero_attacks_a_door_paying_the_primary_cost_up_to_the_points_left() {
    // Attacking: the first card pays its Primary cost (the points left may equal it); Doors:
    // terrain in the Quest Area is a target `t1`, `t2`... (TERRAIN_TARGET + its index).
    use sololab::games::beyond::state::TERRAIN_TARGET;
    let attacks = |b: &Beyond| -> Vec<(u8, u8)> {
        legal(b)
            .into_iter()
            .filter_map(|a| match a {
                A::Attack { card, target, .. } => Some((card, target)),
                _ => None,
            })
            .collect()
    };
    let (ls, charge) = (card("Longsword Slash"), card("Charge"));
    let b = hero_phase("builtin", 2, "Longsword_Slash,Charge", "");
    assert_eq!(
        attacks(&b),
        vec![(ls, TERRAIN_TARGET)],
        "2 points: Slash (2), not Charge (3)"
    );
    let b = hero_phase("builtin", 3, "Longsword_Slash,Charge", "");
    let mut got = attacks(&b);
    got.sort();
    let mut want = vec![(ls, TERRAIN_TARGET), (charge, TERRAIN_TARGET)];
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn points_and_special_options_target_by_range_and_a_free_slot() {
    // Range 1 plays into the hero's own Hero Area, range 2 into any hero's; a Persistent card
    // or Ally needs a free slot there (CONTENT.md, "Three persistent slots a Hero Area"); the
    // option's cost may equal the points left.
    let plays = |b: &Beyond| -> Vec<(u8, u8, u8, u8)> {
        legal(b)
            .into_iter()
            .filter_map(|a| match a {
                A::Play {
                    hero,
                    card,
                    opt,
                    target,
                } => Some((hero, card, opt, target)),
                _ => None,
            })
            .collect()
    };
    let (sf, rally, gs) = (card("Stand Firm"), card("Rally"), card("Guardian Spirit"));
    let b = hero_phase("builtin", 1, "Stand_Firm,Rally", "");
    assert_eq!(
        plays(&b),
        vec![
            (0, rally, 0, 0),
            (0, rally, 0, 1),
            (0, sf, 0, 0),
            (0, sf, 0, 1),
            (1, gs, 0, 1)
        ],
        "range 2 into either Hero Area (Stand Firm at cost 1 = the points left); Olazabal's \
         range-1 Ally into his own only"
    );
    let full = "hero 1 persist 1 card=Blessing owner=1 opt=1 uses=2 attach=-\nhero 1 persist 2 card=Blessing owner=1 opt=1 uses=2 attach=-\nhero 1 persist 3 card=Blessing owner=1 opt=1 uses=2 attach=-\n";
    let b = hero_phase("builtin", 1, "Stand_Firm,Rally", full);
    assert_eq!(
        plays(&b),
        vec![
            (0, rally, 0, 0),
            (0, rally, 0, 1),
            (0, sf, 0, 1),
            (1, gs, 0, 1)
        ],
        "Bastian's area is full: Stand Firm only into Olazabal's; Rally (not persistent) anywhere"
    );
    let b = hero_phase("builtin", 0, "Stand_Firm,Rally", "");
    assert_eq!(
        plays(&b),
        vec![(0, rally, 0, 0), (0, rally, 0, 1), (1, gs, 0, 1)],
        "0 points: not Stand Firm (cost 1)"
    );
    // Which option of a card is persistent is read per option: Pickpocket with its second
    // option made a persistent Special (an edited content file), with Bastian's area full, is
    // offered by its first option only.
    let text = content::BUILTIN_TOML.replacen(
        r#"{ type = "points", range = 1, cost = 0, points = 1 },"#,
        r#"{ type = "special", range = 1, cost = 0, effects = [{ effect = "persistent", stat = "defense", value = 1, uses = 1 }] },"#,
        1,
    );
    assert_ne!(text, content::BUILTIN_TOML, "Pickpocket's second option");
    let path = std::env::temp_dir().join(format!(
        "sololab-beyond-pickpocket-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    let pp = card("Pickpocket");
    let b = hero_phase(path.to_str().unwrap(), 1, "Pickpocket", full);
    let got: Vec<_> = plays(&b).into_iter().filter(|p| p.1 == pp).collect();
    assert_eq!(
        got,
        vec![(0, pp, 0, 0)],
        "the persistent second option has no free slot"
    );
    let b = hero_phase(path.to_str().unwrap(), 1, "Pickpocket", "");
    let got: Vec<_> = plays(&b).into_iter().filter(|p| p.1 == pp).collect();
    assert_eq!(got, vec![(0, pp, 0, 0), (0, pp, 1, 0)]);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn cycling_needs_a_card_to_cycle_and_discarding_for_points_stops_at_the_cap() {
    // Cycling discards and redraws hero cards (never Wounds: Golden Rules); discarding for
    // points is pointless at the cap of 20 points and not offered there.
    let has = |b: &Beyond, f: &dyn Fn(&A) -> bool| legal(b).iter().any(f);
    let cycle = |a: &A| matches!(a, A::Cycle { hero: 0 });
    let discard = |a: &A| matches!(a, A::DiscardForPoints { hero: 0, .. });
    let b = hero_phase("builtin", 5, "Wound:_Gash", "");
    assert!(!has(&b, &cycle), "only a Wound in hand");
    let b = hero_phase("builtin", 5, "Plate_Guard,Wound:_Gash", "");
    assert!(has(&b, &cycle) && has(&b, &discard));
    let b = hero_phase("builtin", 19, "Plate_Guard", "");
    assert!(has(&b, &discard), "19 points: one more is worth a card");
    let b = hero_phase("builtin", 20, "Plate_Guard", "");
    assert!(!has(&b, &discard), "at the cap");
}

#[test]
fn engaging_is_offered_for_the_enemies_whose_cost_the_points_cover() {
    // Engaging: at the enemy's engagement cost, from any area. With 1 point only the Acolyte
    // (cost 1, in slot 2) can be engaged, not the Guard (cost 2, slot 1).
    let engages = |points: u8| -> Vec<A> {
        let b = pos(&format!(
            "{}{}enemy 1 kind=Guard area=quest seq=0 attach=-\nenemy 2 kind=Acolyte area=quest seq=1 attach=-\n",
            game(1, ""),
            hero(1, "Bastian", points, "-", "Plate_Guard"),
        ));
        legal(&b)
            .into_iter()
            .filter(|a| matches!(a, A::Engage { .. }))
            .collect()
    };
    assert_eq!(engages(1), vec![A::Engage { hero: 0, enemy: 1 }]);
    assert_eq!(
        engages(2),
        vec![
            A::Engage { hero: 0, enemy: 0 },
            A::Engage { hero: 0, enemy: 1 }
        ]
    );
    assert_eq!(engages(0), vec![]);
}

#[test]
fn terrain_is_opened_with_more_than_its_value_up_to_what_a_response_card_could_need() {
    // Doors and Portcullises: spending points above the terrain's value opens it unless the
    // response card adds more; amounts that can never open it or that spend more than the
    // largest response value could need are not offered (CONTENT.md, "Spending on terrain").
    let b = hero_phase("builtin", 20, "Plate_Guard", "");
    let amounts: Vec<u8> = legal(&b)
        .into_iter()
        .filter_map(|a| match a {
            A::OpenTerrain {
                hero: 0,
                terrain: 0,
                points,
            } => Some(points),
            _ => None,
        })
        .collect();
    let c = content::builtin();
    let door = c
        .terrain
        .iter()
        .find(|t| t.name == "Side Door")
        .expect("the Side Door");
    let value = door.points[1]; // two heroes
    let max = c.index.max_response;
    let want: Vec<u8> = (value + 1..=value + 1 + max).collect();
    assert_eq!(amounts, want, "value {value}, largest response value {max}");
}

#[test]
fn a_hero_board_action_reaches_its_own_hero_at_range_one_and_any_at_range_two() {
    // Hero actions (the board's): range 1 targets the hero alone, range 2 any hero. Niffil's
    // (range 1, cost 2: draw 1) and Olazabal's (range 2, cost 3: heal 1).
    let b = pos(&format!(
        "{}{}{}",
        game(2, ""),
        hero(1, "Niffil", 2, "-", "Dagger_Stab"),
        hero(2, "Olazabal", 3, "-", "Mace_Blow"),
    ));
    let got: Vec<A> = legal(&b)
        .into_iter()
        .filter(|a| matches!(a, A::HeroAction { .. }))
        .collect();
    assert_eq!(
        got,
        vec![
            A::HeroAction { hero: 0, target: 0 },
            A::HeroAction { hero: 1, target: 0 },
            A::HeroAction { hero: 1, target: 1 }
        ]
    );
}

#[test]
fn the_tutorials_slip_past_is_once_a_round_and_only_while_not_engaged() {
    // Out Through the Side Entrance: "Slip past" (3 points, threat -1) by a hero with no enemy
    // in their Hero Area, once per round (scenario text over the rulebook).
    let offered = |extra: &str, area: &str| -> bool {
        let b = pos(&format!(
            "{}{}enemy 1 kind=Guard area={area} seq=0 attach=-\n",
            game(1, extra),
            hero(1, "Bastian", 3, "-", "Plate_Guard"),
        ));
        legal(&b).contains(&A::ScenarioAction { hero: 0 })
    };
    assert!(offered("scenario_action_used=0", "quest"));
    assert!(
        !offered("scenario_action_used=1", "quest"),
        "used this round"
    );
    assert!(!offered("scenario_action_used=0", "1"), "engaged");
}

#[test]
fn every_door_and_every_hero_area_counts_in_the_shared_lists() {
    // The Hero Phase's shared masks (`hero_phase_cx`): each Door or Portcullis in the Quest
    // Area is a target (here the second of two), and each hero's full Hero Area is refused to a
    // persistent card (here the second hero's).
    use sololab::games::beyond::state::TERRAIN_TARGET;
    let b = pos(&format!(
        "game scenario={TUTORIAL} heroes=2 threat=1 round=1 phase=hero pending=none\nterrain Rubble,Palisade_Gate\n{}{}hero 2 persist 1 card=Blessing owner=2 opt=1 uses=2 attach=-\nhero 2 persist 2 card=Blessing owner=2 opt=1 uses=2 attach=-\nhero 2 persist 3 card=Blessing owner=2 opt=1 uses=2 attach=-\n",
        hero(1, "Bastian", 3, "-", "Longsword_Slash,Stand_Firm"),
        hero(2, "Olazabal", 0, "-", "Mace_Blow"),
    ));
    let l = legal(&b);
    let ls = card("Longsword Slash");
    assert!(
        l.contains(&A::Attack {
            hero: 0,
            card: ls,
            opt: 0,
            target: TERRAIN_TARGET + 1
        }),
        "the Palisade Gate (t2): {l:?}"
    );
    assert!(
        !l.iter()
            .any(|a| matches!(a, A::Attack { target, .. } if *target == TERRAIN_TARGET)),
        "Rubble is no door"
    );
    let sf = card("Stand Firm");
    let targets: Vec<u8> = l
        .iter()
        .filter_map(|a| match a {
            A::Play { card, target, .. } if *card == sf => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(targets, vec![0], "Olazabal's Hero Area is full");
}

#[test]
fn attachments_offset_an_enemys_range_attack_and_engagement_cost() {
    // Wounds and Fatigue as attachments: their enemy modifiers offset the stats; range never
    // below 1, the rest never below 0. Guard: range 1, attack 3, engage 2; Acolyte: range 2.
    let stats_of = |kind: &str, attach: &str| {
        let b = pos(&format!(
            "{}{}enemy 1 kind={kind} area=quest seq=0 attach={attach}\n",
            game(1, ""),
            hero(1, "Bastian", 3, "-", "Plate_Guard"),
        ));
        let s = b.enemy_stats(0);
        // The features' fast Health is the full stats' Health.
        assert_eq!(b.enemy_health(0), s.health, "{kind} with {attach}");
        (s, b.engage_cost(0))
    };
    let (s, cost) = stats_of("Guard", "-");
    assert_eq!(
        (s.range, s.attack, s.defense, s.health, s.engage, cost),
        (1, 3, 2, 2, 2, 2)
    );
    // Weary: attack -1.
    let (s, _) = stats_of("Guard", "Fatigue:_Weary");
    assert_eq!(s.attack, 2);
    // Winded: attack -1, engage +1 (the engagement cost too).
    let (s, cost) = stats_of("Guard", "Fatigue:_Winded");
    assert_eq!((s.attack, s.engage, cost), (2, 3, 3));
    // Sprain: health, attack and engage -1 each.
    let (s, cost) = stats_of("Guard", "Wound:_Sprain");
    assert_eq!((s.health, s.attack, s.engage, cost), (1, 2, 1, 1));
    // Slow: defense and range -1; twice on the Acolyte's range 2 stops at 1.
    let (s, _) = stats_of("Acolyte", "Fatigue:_Slow");
    assert_eq!((s.range, s.defense), (1, 0));
    let (s, _) = stats_of("Acolyte", "Fatigue:_Slow,Fatigue:_Slow");
    assert_eq!((s.range, s.defense), (1, 0));
    let (s, _) = stats_of("Acolyte", "Fatigue:_Slow,Fatigue:_Slow,Fatigue:_Slow");
    assert_eq!(s.range, 1);
}

#[test]
fn the_wound_and_fatigue_decks_reshuffle_their_discards_only_once_empty() {
    // Wounds and Fatigue: an empty Wound or Fatigue Deck reshuffles its own discard pile; a
    // deck with cards left is drawn from its top and its discard pile waits.
    let (gash, bruise) = (card("Wound: Gash"), card("Wound: Bruise"));
    let (weary, slow) = (card("Fatigue: Weary"), card("Fatigue: Slow"));
    let state = |piles: &str| {
        pos(&format!(
            "{}{}{piles}",
            game(1, ""),
            hero(1, "Bastian", 3, "-", "Plate_Guard"),
        ))
    };
    let mut t = VecTrace::default();
    let mut b = state(
        "wound_deck Wound:_Gash\nwound_discard Wound:_Bruise\nfatigue_deck Fatigue:_Weary\nfatigue_discard Fatigue:_Slow\n",
    );
    assert_eq!(b.take_wound(&mut rng(), &mut t), Some(gash));
    assert_eq!(
        b.wound_discard.as_slice(),
        &[bruise],
        "not reshuffled early"
    );
    assert_eq!(b.take_fatigue(&mut rng(), &mut t), Some(weary));
    assert_eq!(
        b.fatigue_discard.as_slice(),
        &[slow],
        "not reshuffled early"
    );
    // Now both decks are empty: the next draw reshuffles the discard pile and takes from it.
    assert_eq!(b.take_wound(&mut rng(), &mut t), Some(bruise));
    assert_eq!(b.take_fatigue(&mut rng(), &mut t), Some(slow));
    assert!(b.wound_discard.is_empty() && b.fatigue_discard.is_empty());
    assert!(traced(&t, "shuffled into a new Fatigue Deck"), "{:?}", t.0);
    // Both empty: no Fatigue card (and no loss); no Wound card is the heroes' loss.
    assert_eq!(b.take_fatigue(&mut rng(), &mut t), None);
    assert_eq!(b.outcome(), None);
    assert_eq!(b.take_wound(&mut rng(), &mut t), None);
    assert!(matches!(b.outcome(), Some(Outcome::Lost(_))));
}

#[test]
fn an_ally_left_at_one_health_stays_and_points_gained_stop_at_the_cap() {
    // Allies: discarded below 1 health, so Guardian Spirit (health 2) hit once stays at 1.
    let mut b = ally_state("Guardian_Spirit", "Guard", &[(1, 0), (1, 1)]);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    play(&mut b, A::AllyTakes { ally: 0 }, &mut t);
    assert_eq!(
        b.heroes[0].persist[0].card,
        card("Guardian Spirit"),
        "{:?}",
        t.0
    );
    assert_eq!(b.heroes[0].persist[0].attach.len(), 1);
    assert_eq!(b.ally_stats(0, 0).health, 1);
    // Action Points: gains add up to the cap of 20.
    let mut b = state_with_points(3);
    b.gain_points(0, 2);
    assert_eq!(b.heroes[0].points, 5);
    b.gain_points(0, 14);
    assert_eq!(b.heroes[0].points, 19);
    b.gain_points(0, 2);
    assert_eq!(b.heroes[0].points, 20);
}

/// One hero (Bastian) with `points`, in the Hero Phase.
fn state_with_points(points: u8) -> Beyond {
    pos(&format!(
        "{}{}",
        game(1, ""),
        hero(1, "Bastian", points, "-", "Plate_Guard"),
    ))
}

/// Bastian (0 points, Stand Firm in his Hero Area with `uses` left, Plate Guard in hand) under
/// the Guard's attack 3 + a Response value of 0, with `content` (a content line's value):
/// played through the Enemy Phase, defending with Plate Guard. Returns the state and trace.
fn stand_firm_defense(content: &str, uses: u8) -> (Beyond, VecTrace) {
    let mut b: Beyond = common::parse(&format!(
        "beyond-position 1\ncontent {content}\n{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard,Plate_Guard\nhero 1 hand Plate_Guard,Longsword_Slash\nhero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses={uses} attach=-\nenemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(1, ""),
        responses(&[(1, 0), (1, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    defend(&mut b, &mut t, 0, card("Plate Guard"), 0);
    play(&mut b, A::TakeAttack, &mut t);
    (b, t)
}

#[test]
fn a_persistent_defense_card_adds_to_each_defense_and_is_spent_by_its_uses() {
    // Persistent cards: Stand Firm (defense +1, 2 uses) adds to every enemy attack on its
    // hero and is discarded after its uses (CONTENT.md, "Persistent cards"). Guard's attack
    // 3 + 0 against Plate Guard 2 + Stand Firm 1 = 3: a tie, blocked (without the +1: a hit).
    let sf = card("Stand Firm");
    let (b, t) = stand_firm_defense("builtin", 2);
    assert!(
        traced(&t, "= 3 against Bastian's defense 3: blocked"),
        "{:?}",
        t.0
    );
    assert_eq!(b.tally.wounds_taken, 0);
    assert_eq!(
        (b.heroes[0].persist[0].card, b.heroes[0].persist[0].uses),
        (sf, 1),
        "one use spent"
    );
    // A persistent effect of 0 uses lasts until the scenario ends: no use is counted (an
    // edited content whose Stand Firm has `uses = 0`; no shipped card has one).
    let text = content::BUILTIN_TOML.replacen(
        r#"stat = "defense", value = 1, uses = 2 }"#,
        r#"stat = "defense", value = 1, uses = 0 }"#,
        1,
    );
    assert_ne!(text, content::BUILTIN_TOML);
    let path = std::env::temp_dir().join(format!(
        "sololab-beyond-lasting-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    let (b, t) = stand_firm_defense(path.to_str().unwrap(), 0);
    let _ = std::fs::remove_file(&path);
    assert!(
        traced(&t, "against Bastian's defense 3: blocked"),
        "{:?}",
        t.0
    );
    assert_eq!(
        (b.heroes[0].persist[0].card, b.heroes[0].persist[0].uses),
        (sf, 0),
        "a lasting card keeps its slot, no use counted"
    );
}

#[test]
fn a_reveal_adds_one_per_revealed_card_with_an_option_of_the_actions_type() {
    // Reveal (vocabulary; CONTENT.md, "Reveal"): Evade (defense 1, reveal 1) reveals the top
    // card of Niffil's deck, +1 when it has a Defense option; the revealed card is discarded.
    let evade = card("Evade");
    let defend_with_top = |top: &str| -> Beyond {
        let mut b = pos(&format!(
            "{}hero 1 name=Niffil side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Dagger_Stab,{top}\nhero 1 hand Evade\nenemy 1 kind=Guard area=1 seq=0 attach=-\ndefend hero=1 enemy=1 total=0 spent=0 cards=-\n",
            game(1, "").replace("pending=none", "pending=defend"),
        ));
        let mut t = VecTrace::default();
        defend(&mut b, &mut t, 0, evade, 0);
        assert!(
            traced(&t, &format!("Niffil reveals {}", top.replace('_', " "))),
            "{:?}",
            t.0
        );
        b
    };
    let b = defend_with_top("Evade");
    assert_eq!(b.defend.total, 2, "Evade revealed: a Defense option");
    assert_eq!(b.heroes[0].deck.len(), 1);
    assert!(b.heroes[0].discard.as_slice().contains(&evade));
    let b = defend_with_top("Throwing_Knife");
    assert_eq!(b.defend.total, 1, "an attack card revealed: nothing added");
}

#[test]
fn an_ally_hit_by_a_wound_and_fatigue_enemy_takes_one_of_each() {
    // The Orc Huntmaster deals 1 Wound and 1 Fatigue (damage = { wounds = 1, fatigue = 1 }),
    // column 2 of its activation in The Huntmaster's Trail: "engage", "attack". Its attack 4 + 1
    // against the Wolf's defense 1 hits, and the Wolf takes the Wound first, then the Fatigue
    // (one card from each deck); Gash takes 1 of its health 3, Weary none: it stays.
    let mut b = ally_state("Wolf_Companion", "Orc_Huntmaster", &[(2, 0), (2, 1)]);
    b.scenario = content::builtin()
        .scenario_index("The Huntmaster's Trail")
        .expect("shipped scenario");
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.pending, Pending::Defend, "{:?}", t.0);
    play(&mut b, A::AllyTakes { ally: 0 }, &mut t);
    assert_eq!(
        b.heroes[0].persist[0].attach.as_slice(),
        &[card("Wound: Gash"), card("Fatigue: Weary")],
        "{:?}",
        t.0
    );
    assert_eq!(b.heroes[0].persist[0].card, card("Wolf Companion"));
    assert_eq!(b.ally_stats(0, 0).health, 2);
    assert_eq!(b.tally.wounds_taken, 0, "the hero took nothing");
}

/// A state from position lines with the content `content` (a path), round-tripped.
fn pos_in(content: &str, body: &str) -> Beyond {
    let b: Beyond = common::parse(&format!("beyond-position 1\ncontent {content}\n{body}"));
    common::assert_round_trip(&b);
    b
}

/// Plays hero 1's `card` (option 0) on hero 1.
fn play_on_self(b: &mut Beyond, t: &mut VecTrace, card: u8) {
    play(
        b,
        A::Play {
            hero: 0,
            card,
            opt: 0,
            target: 0,
        },
        t,
    );
}

#[test]
fn special_options_draw_heal_wounds_first_and_gain_points() {
    // Insight (Special, cost 1): draw 2. Elisa keeps none of it in hand and draws two Focus.
    let mut t = VecTrace::default();
    let mut b = pos(&format!(
        "{}{}",
        game(1, ""),
        hero(1, "Elisa", 5, "Focus,Focus,Focus", "Insight")
    ));
    play_on_self(&mut b, &mut t, card("Insight"));
    assert_eq!(
        b.heroes[0].hand.as_slice(),
        &[card("Focus"), card("Focus")],
        "{:?}",
        t.0
    );
    assert_eq!(b.heroes[0].deck.len(), 1);
    assert_eq!(b.heroes[0].points, 4);
    // Second Wind (Special, cost 1): heal 1, a Wound before a Fatigue even when the Fatigue
    // comes first in hand; the healed card goes back to its pile.
    let mut b = pos(&format!(
        "{}{}wound_deck Wound:_Gash\n",
        game(1, ""),
        hero(
            1,
            "Bastian",
            5,
            "Rally",
            "Fatigue:_Weary,Wound:_Gash,Second_Wind"
        )
    ));
    play_on_self(&mut b, &mut t, card("Second Wind"));
    assert_eq!(
        b.heroes[0].hand.as_slice(),
        &[card("Fatigue: Weary")],
        "{:?}",
        t.0
    );
    assert!(traced(&t, "Bastian heals Wound: Gash"), "{:?}", t.0);
    assert_eq!(b.wound_discard.as_slice(), &[card("Wound: Gash")]);
    // A points effect (no shipped card has one: an edited content whose Insight gains 2
    // points instead of drawing): 5 - 1 + 2.
    let text = content::BUILTIN_TOML.replacen(
        r#"cost = 1, effects = [{ effect = "draw", value = 2 }]"#,
        r#"cost = 1, effects = [{ effect = "points", value = 2 }]"#,
        1,
    );
    assert_ne!(text, content::BUILTIN_TOML);
    let path = std::env::temp_dir().join(format!(
        "sololab-beyond-points-effect-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    let mut b = pos_in(
        path.to_str().unwrap(),
        &format!("{}{}", game(1, ""), hero(1, "Elisa", 5, "Focus", "Insight")),
    );
    let _ = std::fs::remove_file(&path);
    play_on_self(&mut b, &mut t, card("Insight"));
    assert_eq!(b.heroes[0].points, 6, "{:?}", t.0);
    assert_eq!(b.heroes[0].hand.len(), 0, "nothing drawn");
}

/// Bastian alone in `scenario` of the campaign Old Friends at `campaign_pos`, in the Hero
/// Phase, with `rest` (more position lines).
fn campaign_state(scenario: &str, campaign_pos: u8, rest: &str) -> Beyond {
    pos(&format!(
        "game scenario={scenario} campaign=Old_Friends campaign_pos={campaign_pos} heroes=1 threat=1 round=1 phase=hero pending=none\nhero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\n{rest}"
    ))
}

#[test]
fn a_won_campaign_scenario_rewards_its_items_unlocks_the_sides_then_plays_the_next() {
    // Campaign Play: The Huntmaster's Trail (2nd of Old Friends' 3) is won when no Orc
    // Huntmaster is left; it rewards 1 item (the top of the item deck, here the Chain Shirt)
    // and unlocks the alternate board sides, then Old Friends begins.
    let c = content::builtin();
    let mut t = VecTrace::default();
    let mut b = campaign_state(
        "The_Huntmaster's_Trail",
        1,
        "item_deck Iron_Helm,Chain_Shirt\n",
    );
    b.check_win(&mut t);
    assert_eq!(
        (b.result, b.phase, b.tally.won, b.rewards_left),
        (0, Phase::Campaign, 1, 1),
        "{:?}",
        t.0
    );
    b.after_action(&mut rng(), &mut t);
    let shirt = c.item_index("Chain Shirt").unwrap();
    assert_eq!(b.pending, Pending::Equip { item: shirt }, "{:?}", t.0);
    play(&mut b, A::Equip { hero: NO_CARD }, &mut t);
    assert_eq!(
        b.pending,
        Pending::Side { hero: 0 },
        "one item only: {:?}",
        t.0
    );
    assert!(b.alt_unlocked);
    assert_eq!(b.item_deck.len(), 1, "the Iron Helm is left");
    play(&mut b, A::Side { alt: false }, &mut t);
    assert_eq!(
        (b.scenario, b.campaign_pos, b.phase, b.result),
        (c.scenario_index("Old Friends").unwrap(), 2, Phase::Hero, 0),
        "{:?}",
        t.0
    );
    // Winning the last scenario wins the campaign (Old Friends: terrain cleared).
    let mut b = campaign_state("Old_Friends", 2, "");
    let mut t = VecTrace::default();
    b.check_win(&mut t);
    assert_eq!((b.result, b.phase, b.tally.won), (1, Phase::Over, 1));
    assert!(traced(&t, "the campaign Old Friends is won"), "{:?}", t.0);
    // While an Orc Huntmaster is alive or in the enemy deck, The Huntmaster's Trail goes on.
    for rest in [
        "enemy 1 kind=Orc_Huntmaster area=quest seq=0 attach=-\n",
        "enemy_deck Orc_Archer,Orc_Huntmaster,Orc_Warrior\n",
    ] {
        let mut b = campaign_state("The_Huntmaster's_Trail", 1, rest);
        b.check_win(&mut VecTrace::default());
        assert_eq!((b.phase, b.tally.won), (Phase::Hero, 0), "{rest}");
    }
}

#[test]
fn an_enemies_defeated_scenario_is_won_when_its_deck_and_its_enemies_are_gone() {
    // No shipped scenario is won this way: an edited content whose tutorial's win is
    // "enemies_defeated" (Scenario setup, win conditions).
    let text = content::BUILTIN_TOML.replacen(
        r#"win = "terrain_cleared""#,
        r#"win = "enemies_defeated""#,
        1,
    );
    assert_ne!(text, content::BUILTIN_TOML);
    let path = std::env::temp_dir().join(format!(
        "sololab-beyond-enemies-defeated-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    let won = |rest: &str| {
        let mut b = pos_in(
            path.to_str().unwrap(),
            &format!(
                "game scenario={TUTORIAL} heroes=1 threat=1 round=1 phase=hero pending=none\n{}terrain Side_Door\n{rest}",
                hero(1, "Bastian", 0, "Rally", "Rally")
            ),
        );
        b.check_win(&mut VecTrace::default());
        b.result
    };
    let (none_left, in_deck, alive) = (
        won(""),
        won("enemy_deck Guard\n"),
        won("enemy 1 kind=Guard area=quest seq=0 attach=-\n"),
    );
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        (none_left, in_deck, alive),
        (1, 0, 0),
        "won with no enemy left (the terrain stays), not with one in the deck or in play"
    );
}

#[test]
fn new_hero_phase_actions_count_toward_the_cap_and_the_tallies_count_plays_and_rounds() {
    // The action cap (CONTENT.md, "Action cap"): 10 + 10 x 2 heroes = 30 new actions a Hero
    // Phase. An attack is one new action; the cards added to it and its resolution are not.
    let (ls, knife) = (card("Longsword Slash"), card("Throwing Knife"));
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand Longsword_Slash,Rally\nhero 2 name=Niffil side=0 points=5 known=0 items=-,-,-,-,-\nhero 2 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 2 hand Throwing_Knife,Dagger_Stab\nenemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        game(2, "actions=29"),
        responses(&[(1, 0), (1, 0), (1, 0), (1, 0)])
    ));
    assert_eq!((b.decisions, b.tally.played, b.tally.rounds), (0, 0, 0));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 0, ls, 0, 0);
    assert_eq!((b.actions, b.decisions, b.tally.played), (30, 1, 1));
    add(&mut b, &mut t, 1, knife, 0);
    assert_eq!((b.actions, b.decisions, b.tally.played), (30, 2, 2));
    play(&mut b, A::ResolveAttack, &mut t);
    assert_eq!((b.actions, b.decisions), (30, 3), "{:?}", t.0);
    assert_eq!(b.pending, Pending::None);
    assert_eq!(
        legal(&b),
        vec![A::EndPhase],
        "the cap is reached: {:?}",
        t.0
    );
    // One action fewer and the hero phase goes on.
    let mut b2 = b;
    b2.actions = 29;
    assert!(legal(&b2).len() > 1);
    play(&mut b, A::EndPhase, &mut t);
    // The Guard attacks Bastian: he takes it, and round 2 begins.
    play(&mut b, A::TakeAttack, &mut t);
    assert_eq!(b.tally.rounds, 1, "{:?}", t.0);
    assert_eq!((b.phase, b.actions), (Phase::Hero, 0), "{:?}", t.0);
}

#[test]
fn each_hero_phase_action_pays_its_cost_and_points_options_gain() {
    // Elisa's board: draw cost 1, cycle cost 2. Focus (Points option, cost 0): +3 points;
    // Wound: Sprain (hero: points -1) played on its own costs 1 point; each play is tallied.
    let mut t = VecTrace::default();
    let mut b = pos(&format!(
        "{}{}",
        game(1, ""),
        hero(
            1,
            "Elisa",
            6,
            "Focus,Focus,Focus",
            "Focus,Wound:_Sprain,Insight"
        )
    ));
    play_on_self(&mut b, &mut t, card("Focus"));
    assert_eq!((b.heroes[0].points, b.tally.played), (9, 1), "{:?}", t.0);
    let sprain = card("Wound: Sprain");
    play(
        &mut b,
        A::WoundPoints {
            hero: 0,
            card: sprain,
        },
        &mut t,
    );
    assert_eq!((b.heroes[0].points, b.tally.played), (8, 2), "{:?}", t.0);
    // A played Wound goes to the hero's discard (Wounds, Fatigue and Taking Damage).
    assert_eq!(b.heroes[0].discard.as_slice(), &[card("Focus"), sprain]);
    play(&mut b, A::Draw { hero: 0 }, &mut t);
    assert_eq!(
        (b.heroes[0].points, b.heroes[0].hand.len()),
        (7, 2),
        "{:?}",
        t.0
    );
    play(&mut b, A::Cycle { hero: 0 }, &mut t);
    assert_eq!(b.heroes[0].points, 5, "{:?}", t.0);
    assert_eq!(b.pending, Pending::Cycle { hero: 0, count: 0 });
}

#[test]
fn a_wound_added_to_an_attack_is_recorded_as_its_initiators() {
    // Hero 2 (Niffil) attacks and adds Wound: Gash (hero: attack -1) as an attack modifier:
    // the commitment is his (`Wound:_Gash@2.1` in the position), the total 1 less.
    let knife = card("Throwing Knife");
    let gash = card("Wound: Gash");
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 hand Rally\nhero 2 name=Niffil side=0 points=5 known=0 items=-,-,-,-,-\nhero 2 hand Throwing_Knife,Wound:_Gash\nenemy 1 kind=Guard area=2 seq=0 attach=-\n{}",
        game(2, ""),
        responses(&[(1, 0)])
    ));
    let mut t = VecTrace::default();
    attack(&mut b, &mut t, 1, knife, 0, 0);
    let before = b.attack.total;
    add(&mut b, &mut t, 1, gash, 0);
    assert_eq!(b.attack.n, 2);
    assert_eq!(
        (b.attack.cards[1], b.attack.owners[1]),
        (gash, 2),
        "{:?}",
        t.0
    );
    assert_eq!(b.attack.total, before - 1);
    assert!(
        sololab::games::beyond::position::write(&b).contains("Wound:_Gash@2.1"),
        "{}",
        sololab::games::beyond::position::write(&b)
    );
}

#[test]
fn cycling_drawing_by_the_hero_action_disengaging_slipping_past_and_defending_pay_their_costs() {
    let mut t = VecTrace::default();
    // Cycling (Elisa: cost 2): two cards discarded, two drawn.
    let mut b = pos(&format!(
        "{}{}",
        game(1, ""),
        hero(
            1,
            "Elisa",
            6,
            "Focus,Focus,Focus,Focus",
            "Focus,Insight,Flame_Wall"
        )
    ));
    play(&mut b, A::Cycle { hero: 0 }, &mut t);
    play(
        &mut b,
        A::CycleCard {
            card: card("Focus"),
        },
        &mut t,
    );
    play(
        &mut b,
        A::CycleCard {
            card: card("Insight"),
        },
        &mut t,
    );
    play(&mut b, A::CycleDone, &mut t);
    assert_eq!(
        (
            b.heroes[0].points,
            b.heroes[0].hand.len(),
            b.heroes[0].deck.len()
        ),
        (4, 3, 2),
        "{:?}",
        t.0
    );
    // Niffil's hero action (Special, cost 2): draw 1.
    let mut b = pos(&format!(
        "{}{}",
        game(1, ""),
        hero(1, "Niffil", 5, "Rally,Rally,Rally", "Rally")
    ));
    play(&mut b, A::HeroAction { hero: 0, target: 0 }, &mut t);
    assert_eq!(
        (b.heroes[0].points, b.heroes[0].hand.len()),
        (3, 2),
        "{:?}",
        t.0
    );
    // Disengaging the Guard costs its engagement cost, 2.
    let mut b = pos(&format!(
        "{}{}enemy 1 kind=Guard area=1 seq=0 attach=-\n",
        game(1, ""),
        hero(1, "Bastian", 5, "Rally", "Rally")
    ));
    play(&mut b, A::Disengage { hero: 0, enemy: 0 }, &mut t);
    assert_eq!(
        (b.heroes[0].points, b.enemies[0].area),
        (3, QUEST),
        "{:?}",
        t.0
    );
    // The tutorial's Slip past (cost 3, threat -1, once a round): threat 3 -> 2.
    let mut b = pos(&format!(
        "game scenario={TUTORIAL} heroes=1 threat=3 round=1 phase=hero pending=none\nterrain Side_Door\n{}",
        hero(1, "Bastian", 5, "Rally", "Rally")
    ));
    play(&mut b, A::ScenarioAction { hero: 0 }, &mut t);
    assert_eq!(
        (b.heroes[0].points, b.threat, b.scenario_action_used),
        (2, 2, true),
        "{:?}",
        t.0
    );
    // A Defense option's cost (Flame Wall: 1), and the committed card is tallied.
    let mut b = pos(&format!(
        "{}{}enemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(1, ""),
        hero(
            1,
            "Elisa",
            3,
            "Focus,Focus,Focus,Focus,Focus,Focus,Focus",
            "Flame_Wall"
        ),
        responses(&[(1, 0), (1, 0)])
    ));
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.pending, Pending::Defend, "{:?}", t.0);
    defend(&mut b, &mut t, 0, card("Flame Wall"), 0);
    assert_eq!((b.heroes[0].points, b.tally.played), (2, 1), "{:?}", t.0);
}

#[test]
fn a_defense_records_points_spent_and_each_committed_card_with_its_hero() {
    // The Guard attacks Bastian (defense rate 1: 1 point for +1 defense); Elisa aids with
    // Flame Wall (range 2, cost 1). The commitment is hers (`Flame_Wall@2.1`).
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=4 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand Rally\nhero 2 name=Elisa side=0 points=3 known=0 items=-,-,-,-,-\nhero 2 deck Focus,Focus,Focus,Focus,Focus,Focus,Focus\nhero 2 hand Flame_Wall\nenemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(2, ""),
        responses(&[(1, 0), (1, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(
        (b.pending, b.defend.hero),
        (Pending::Defend, 0),
        "{:?}",
        t.0
    );
    play(&mut b, A::DefendPoints, &mut t);
    assert_eq!(
        (b.heroes[0].points, b.defend.spent, b.defend.total),
        (3, 1, 1)
    );
    let wall = card("Flame Wall");
    defend(&mut b, &mut t, 1, wall, 0);
    assert_eq!(b.defend.n, 1, "{:?}", t.0);
    assert_eq!((b.defend.cards[0], b.defend.owners[0]), (wall, 2));
    assert_eq!((b.heroes[1].points, b.defend.total), (2, 3));
    let text = sololab::games::beyond::position::write(&b);
    assert!(text.contains("Flame_Wall@2.1"), "{text}");
}

/// Bastian alone in the tutorial's Enemy Phase with `pending`, `hand` and `rest` (more
/// position lines).
fn enemy_phase_state(pending: &str, hand: &str, rest: &str) -> Beyond {
    pos(&format!(
        "game scenario={TUTORIAL} heroes=1 threat=1 round=1 phase=enemy pending={pending}\nterrain Side_Door\n{}{rest}",
        hero(1, "Bastian", 0, SEVEN_RALLY, hand)
    ))
}

#[test]
fn an_intimidate_asks_for_one_discard_at_a_time_from_hand_or_persistent_cards() {
    // Intimidate 2: a persistent card, then a card from hand; each counts one.
    let mut b = enemy_phase_state(
        "intimidate:1:2",
        "Rally,Plate_Guard",
        "hero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses=2 attach=-\n",
    );
    let mut t = VecTrace::default();
    play(&mut b, A::DiscardPersistent { slot: 0 }, &mut t);
    assert_eq!(b.heroes[0].persist[0].card, NO_CARD);
    assert_eq!(
        b.pending,
        Pending::Intimidate { hero: 0, left: 1 },
        "{:?}",
        t.0
    );
    play(
        &mut b,
        A::Discard {
            card: card("Rally"),
        },
        &mut t,
    );
    // (The phase then runs on to the next round's draws.)
    assert!(b.heroes[0].discard.as_slice().contains(&card("Rally")));
    assert!(b.heroes[0].hand.as_slice().contains(&card("Plate Guard")));
    assert!(
        !matches!(b.pending, Pending::Intimidate { .. }),
        "both discarded: {:?}",
        b.pending
    );
}

#[test]
fn a_heal_of_several_enemies_asks_for_each_among_those_not_yet_healed() {
    // A heal of 2 among three wounded Orc Warriors (slots 1-3): the second pick is among the
    // two others; after it the heal is over and the third keeps its Wound.
    let warriors = (1..=3)
        .map(|i| format!("enemy {i} kind=Orc_Warrior area=quest seq=0 attach=Wound:_Gash\n"))
        .collect::<String>();
    let mut b = enemy_phase_state("pick_heal:7:2", "Rally", &warriors);
    let mut t = VecTrace::default();
    play(&mut b, A::Heal { enemy: 1 }, &mut t);
    assert!(b.enemies[1].attach.is_empty(), "{:?}", t.0);
    assert_eq!(
        b.pending,
        Pending::PickHeal {
            cands: 0b101,
            left: 1
        }
    );
    assert_eq!(legal(&b), vec![A::Heal { enemy: 0 }, A::Heal { enemy: 2 }]);
    play(&mut b, A::Heal { enemy: 2 }, &mut t);
    assert!(b.enemies[2].attach.is_empty());
    assert_eq!(b.enemies[0].attach.len(), 1, "healed twice only");
    assert!(
        !matches!(b.pending, Pending::PickHeal { .. }),
        "{:?}",
        b.pending
    );
}

#[test]
fn a_poison_redirected_to_an_ally_wounds_it_and_one_kept_poisons_the_deck() {
    // Poison (cursor ability 1) on Bastian, who has the Wolf Companion: redirected, the Wolf
    // gets a Wound attached and stays (health 3 - 1); kept, a Fatigue goes on top of his deck.
    let wolf = "hero 1 persist 1 card=Wolf_Companion owner=1 opt=1 uses=0 attach=-\ncursor column=1 row=1 enemy=- act=0 eligible=0 done=0 rank=1,2,3,4 ranked=0 followers=0 order=0 follower=- ability=1 ability_value=0\nwound_deck Wound:_Gash\nfatigue_deck Fatigue:_Weary\n";
    let mut b = enemy_phase_state("redirect:1", "Rally", wolf);
    let mut t = VecTrace::default();
    play(&mut b, A::Redirect { ally: 0 }, &mut t);
    assert_eq!(
        b.heroes[0].persist[0].card,
        card("Wolf Companion"),
        "{:?}",
        t.0
    );
    assert_eq!(
        b.heroes[0].persist[0].attach.as_slice(),
        &[card("Wound: Gash")]
    );
    let mut b = enemy_phase_state("redirect:1", "Rally", wolf);
    let mut t = VecTrace::default();
    play(&mut b, A::Redirect { ally: NO_CARD }, &mut t);
    // (Drawn again in the Draw Phase the game runs on to.)
    assert!(
        traced(&t, "Fatigue: Weary goes on top of Bastian's deck"),
        "{:?}",
        t.0
    );
    assert!(
        b.heroes[0]
            .hand
            .as_slice()
            .contains(&card("Fatigue: Weary"))
    );
    assert!(b.heroes[0].persist[0].attach.is_empty());
}

#[test]
fn an_attacks_reveal_adds_and_an_attack_played_as_a_second_option_is_recorded_so() {
    // No shipped attack option reveals or is a card's second option: an edited content whose
    // Holy Light attack reveals 1 and whose Shield Bash lists its defense option first.
    let holy =
        r#"{ type = "attack", range = 2, primary = 2, secondary = 2, attack = 1, response = 1 },"#;
    let bash = r#"  { type = "attack", range = 1, primary = 1, secondary = 1, attack = 2, effects = [{ effect = "disengage" }] },
  { type = "defense", range = 1, cost = 0, defense = 2 },"#;
    let text = content::BUILTIN_TOML
        .replacen(
            holy,
            r#"{ type = "attack", range = 2, primary = 2, secondary = 2, attack = 1, response = 1, effects = [{ effect = "reveal", value = 1 }] },"#,
            1,
        )
        .replacen(
            bash,
            r#"  { type = "defense", range = 1, cost = 0, defense = 2 },
  { type = "attack", range = 1, primary = 1, secondary = 1, attack = 2, effects = [{ effect = "disengage" }] },"#,
            1,
        );
    assert!(
        !text.contains(holy) && !text.contains(bash),
        "both edits made"
    );
    let path = std::env::temp_dir().join(format!(
        "sololab-beyond-reveal-attack-{}.toml",
        std::process::id()
    ));
    std::fs::write(&path, text).unwrap();
    let at = |name: &str, deck: &str, hand: &str, area: &str| {
        pos_in(
            path.to_str().unwrap(),
            &format!(
                "{}{}enemy 1 kind=Guard area={area} seq=0 attach=-\n",
                game(1, ""),
                hero(1, name, 5, deck, hand)
            ),
        )
    };
    let (holy_light, shield_bash) = (card("Holy Light"), card("Shield Bash"));
    let mut t = VecTrace::default();
    // Olazabal's top card (Holy Light) has an Attack option: attack 1 + 1.
    let mut b = at("Olazabal", "Blessing,Holy_Light", "Holy_Light", "quest");
    attack(&mut b, &mut t, 0, holy_light, 0, 0);
    assert_eq!(b.attack.total, 2, "{:?}", t.0);
    // A Blessing on top (no Attack option): 1 + 0.
    let mut b = at("Olazabal", "Holy_Light,Blessing", "Holy_Light", "quest");
    attack(&mut b, &mut t, 0, holy_light, 0, 0);
    assert_eq!(b.attack.total, 1, "{:?}", t.0);
    // Shield Bash's attack, now its second option.
    let mut b = at("Bastian", "Rally", "Shield_Bash", "1");
    attack(&mut b, &mut t, 0, shield_bash, 1, 0);
    let _ = std::fs::remove_file(&path);
    assert_eq!((b.attack.total, b.attack.owners[0]), (2, 1), "{:?}", t.0);
    let text = sololab::games::beyond::position::write(&b);
    assert!(text.contains("Shield_Bash@1.2"), "{text}");
}

#[test]
fn after_the_unlock_each_hero_chooses_a_board_side_in_turn_then_the_next_scenario_begins() {
    let c = content::builtin();
    let mut b = pos(
        "game scenario=The_Huntmaster's_Trail campaign=Old_Friends campaign_pos=1 alt_unlocked=1 heroes=2 threat=1 round=1 phase=campaign pending=side:1\nhero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 2 name=Elisa side=0 points=0 known=0 items=-,-,-,-,-\n",
    );
    let mut t = VecTrace::default();
    play(&mut b, A::Side { alt: true }, &mut t);
    assert_eq!(b.pending, Pending::Side { hero: 1 }, "{:?}", t.0);
    assert_eq!(b.heroes[0].side, 1);
    play(&mut b, A::Side { alt: false }, &mut t);
    assert_eq!((b.heroes[0].side, b.heroes[1].side), (1, 0));
    assert_eq!(
        (b.scenario, b.campaign_pos, b.phase),
        (c.scenario_index("Old Friends").unwrap(), 2, Phase::Hero),
        "{:?}",
        t.0
    );
}

#[test]
fn an_attacks_engage_and_disengage_bonuses_move_the_enemy_and_a_persistent_bonus_adds() {
    // Charge (range 2, Bonus: engage) on the Guard in the Quest Area: attack 3 against its
    // defense 2 + 0 hits, one Wound (health 2 - 1): alive, engaged with Bastian.
    let mut t = VecTrace::default();
    let at = |hand: &str, area: &str, rest: &str| {
        pos(&format!(
            "{}{}enemy 1 kind=Guard area={area} seq=0 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n{rest}{}",
            game(1, ""),
            hero(1, "Bastian", 5, "Rally", hand),
            responses(&[(1, 0), (1, 0)])
        ))
    };
    let mut b = at("Charge", "quest", "");
    attack(&mut b, &mut t, 0, card("Charge"), 0, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(traced(&t, "bonus: Guard is engaged"), "{:?}", t.0);
    assert_eq!((b.enemies[0].area, b.enemies[0].alive()), (0, true));
    // Shield Bash (range 1, Bonus: disengage) on the Guard in Bastian's area: back to the
    // Quest Area.
    let mut b = at("Shield_Bash", "1", "");
    attack(&mut b, &mut t, 0, card("Shield Bash"), 0, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert_eq!(b.enemies[0].area, QUEST, "{:?}", t.0);
    // Rage in Bastian's Hero Area (persistent attack +1): Shield Bash's 2 + 1.
    let mut t = VecTrace::default();
    let mut b = at(
        "Shield_Bash",
        "1",
        "hero 1 persist 1 card=Rage owner=1 opt=1 uses=2 attach=-\n",
    );
    attack(&mut b, &mut t, 0, card("Shield Bash"), 0, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(
        traced(
            &t,
            "attack 3 against Guard's defense 2 + response 0 = 2: hit"
        ),
        "{:?}",
        t.0
    );
}

#[test]
fn an_acolytes_poison_on_a_hero_with_an_ally_lets_the_players_redirect_it() {
    // The Acolyte's column 2: "poison". Bastian has the Wolf Companion: the players choose
    // whether the ally takes it (a Wound attached) or Bastian (a Fatigue on his deck).
    let (b, t) = bastian_ends_the_phase(
        &game(1, ""),
        0,
        "Rally",
        "hero 1 persist 1 card=Wolf_Companion owner=1 opt=1 uses=0 attach=-\nenemy 1 kind=Acolyte area=quest seq=0 attach=-\nwound_deck Wound:_Gash\nfatigue_deck Fatigue:_Weary\n",
        &[(2, 0)],
    );
    assert!(traced(&t, "Acolyte poisons Bastian"), "{:?}", t.0);
    assert_eq!(b.pending, Pending::Redirect { hero: 0 }, "{:?}", t.0);
    assert_eq!(
        legal(&b),
        vec![A::Redirect { ally: NO_CARD }, A::Redirect { ally: 0 }]
    );
    // Without an ally (Stand Firm is persistent, not an Ally), the Fatigue goes straight onto
    // his deck.
    let (_, t) = bastian_ends_the_phase(
        &game(1, ""),
        0,
        "Rally",
        "hero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses=2 attach=-\nenemy 1 kind=Acolyte area=quest seq=0 attach=-\nfatigue_deck Fatigue:_Weary\n",
        &[(2, 0)],
    );
    assert!(
        traced(&t, "Fatigue: Weary goes on top of Bastian's deck"),
        "{:?}",
        t.0
    );
}

#[test]
fn a_guards_support_moves_it_to_the_area_with_the_most_guards() {
    // The Guard's column 3: "support Guard / attack". The Guard in Bastian's area supports the
    // other Guard, in the Quest Area: it moves there (and does not attack).
    let (b, t) = bastian_ends_the_phase(
        &game(1, ""),
        0,
        "Rally",
        "enemy 1 kind=Guard area=1 seq=0 attach=-\nenemy 2 kind=Guard area=quest seq=1 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n",
        &[(3, 0), (1, 0), (1, 0)],
    );
    assert_eq!(b.enemies[0].area, QUEST, "{:?}", t.0);
    assert_eq!(b.tally.wounds_taken, 0, "{:?}", t.0);
}

/// Bastian (`points`, `hand`, seven Rally in his deck) in the Hero Phase of the position
/// headed by `game_line` (its `game` line and any terrain), with `rest` (more position lines)
/// and the Response cards `draws` (first drawn first), after ending the phase: the state and
/// its trace.
fn bastian_ends_the_phase(
    game_line: &str,
    points: u8,
    hand: &str,
    rest: &str,
    draws: &[(u8, u8)],
) -> (Beyond, VecTrace) {
    let mut b = pos(&format!(
        "{game_line}{}{rest}{}",
        hero(1, "Bastian", points, SEVEN_RALLY, hand),
        responses(draws)
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    (b, t)
}

/// Bastian alone (0 points, `hand`) in `scenario`'s Hero Phase with `rest` (enemy lines), the
/// Response cards `draws`, after ending the phase and taking an attack if one comes: the trace.
fn enemy_phase_trace(scenario: &str, hand: &str, rest: &str, draws: &[(u8, u8)]) -> VecTrace {
    let (mut b, mut t) = bastian_ends_the_phase(
        &format!("game scenario={scenario} heroes=1 threat=1 round=1 phase=hero pending=none\n"),
        0,
        hand,
        &format!("{rest}wound_deck Wound:_Gash,Wound:_Gash\nfatigue_deck Fatigue:_Weary\n"),
        draws,
    );
    if b.pending == Pending::Defend {
        play(&mut b, A::TakeAttack, &mut t);
    }
    t
}

#[test]
fn an_enemy_unable_to_act_takes_its_alternate_or_does_nothing() {
    // Enemy Activation: an action that would not change the board is "unable".
    const SMOKE: &str = "Smoke_over_the_Village";
    const TRAIL: &str = "The_Huntmaster's_Trail";
    let archer = "enemy 1 kind=Orc_Archer area=quest seq=0 attach=-\n";
    // (scenario, hand, enemy lines, the activation's Response draw, the expected event)
    type Case = (&'static str, &'static str, String, (u8, u8), &'static str);
    let cases: [Case; 6] = [
        // A lone Guard in the Quest Area can neither support another Guard nor reach Bastian
        // (range 1): column 3, "support Guard / attack", does nothing.
        (
            TUTORIAL,
            "Rally",
            "enemy 1 kind=Guard area=quest seq=0 attach=-\n".into(),
            (3, 0),
            "Guard is unable to support Guard or attack: does nothing",
        ),
        // An Orc Archer already in the Quest Area cannot disengage (column 2).
        (
            SMOKE,
            "Rally",
            archer.into(),
            (2, 0),
            "Orc Archer is unable to disengage: alternate attack",
        ),
        // Nothing to take from a hero without points (column 3: obstruct 2).
        (
            SMOKE,
            "Rally",
            archer.into(),
            (3, 0),
            "Orc Archer is unable to obstruct 2: alternate attack",
        ),
        // Nothing to discard (a Wound alone in hand, no persistent card): the Acolyte's
        // column 3, intimidate 1.
        (
            TUTORIAL,
            "Wound:_Gash",
            "enemy 1 kind=Acolyte area=quest seq=0 attach=-\n".into(),
            (3, 0),
            "Acolyte is unable to intimidate 1: alternate attack",
        ),
        // An Orc Warrior already with the first target cannot reengage (column 3).
        (
            TRAIL,
            "Rally",
            "enemy 1 kind=Orc_Warrior area=1 seq=0 attach=-\n".into(),
            (3, 0),
            "Orc Warrior is unable to reengage: does nothing",
        ),
        // The Huntmaster's "orc disengage" (column 1) orders the other orcs in its area: the
        // Warrior in the Quest Area is not in it, the Guard in it is not an orc.
        (
            TRAIL,
            "Rally",
            "enemy 1 kind=Orc_Huntmaster area=1 seq=0 attach=-\nenemy 2 kind=Orc_Warrior area=quest seq=1 attach=-\nenemy 3 kind=Guard area=1 seq=2 attach=-\n".into(),
            (1, 0),
            "Orc Huntmaster is unable to orc disengage: does nothing",
        ),
    ];
    for (scenario, hand, enemies, draw, expected) in cases {
        let t = enemy_phase_trace(scenario, hand, &enemies, &[draw, (1, 0), (1, 0), (1, 0)]);
        assert!(traced(&t, expected), "{expected}: {:?}", t.0);
    }
}

#[test]
fn a_summon_with_every_enemy_slot_taken_is_unable() {
    // The Huntmaster's column 3: "summon Orc Warrior / attack". With all 12 enemy slots in
    // play there is no room to summon: it attacks instead; with one free it summons.
    let full: String = (1..=12)
        .map(|i| {
            let kind = if i == 1 {
                "Orc_Huntmaster"
            } else {
                "Orc_Warrior"
            };
            let area = if i == 1 { "1" } else { "quest" };
            format!("enemy {i} kind={kind} area={area} seq={} attach=-\n", i - 1)
        })
        .collect();
    let draws = [(3, 0), (1, 0), (1, 0), (1, 0)];
    let t = enemy_phase_trace("The_Huntmaster's_Trail", "Rally", &full, &draws);
    assert!(
        traced(
            &t,
            "Orc Huntmaster is unable to summon Orc Warrior: alternate attack"
        ),
        "{:?}",
        t.0
    );
    let eleven: String = full.lines().take(11).map(|l| format!("{l}\n")).collect();
    let t = enemy_phase_trace("The_Huntmaster's_Trail", "Rally", &eleven, &draws);
    assert!(!traced(&t, "is unable to summon"), "{:?}", t.0);
}

#[test]
fn an_attacks_wound_and_fatigue_bonuses_attach_to_an_enemy_left_alive() {
    let mut t = VecTrace::default();
    // Backstab (attack 3, Bonus: 1 more Wound) on the Orc Huntmaster (defense 2, health 3):
    // a hit, Niffil's damage (1 Wound) and the bonus Wound: health 1, alive.
    let mut b = pos(&format!(
        "{}{}enemy 1 kind=Orc_Huntmaster area=1 seq=0 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        game(1, ""),
        hero(1, "Niffil", 5, "Rally", "Backstab"),
        responses(&[(1, 0)])
    ));
    attack(&mut b, &mut t, 0, card("Backstab"), 0, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(traced(&t, "bonus: 1 more Wound"), "{:?}", t.0);
    assert_eq!(
        b.enemies[0].attach.as_slice(),
        &[card("Wound: Gash"), card("Wound: Gash")]
    );
    assert_eq!(b.enemy_stats(0).health, 1);
    // Burning Hex (attack 2, Bonus: 1 Fatigue) on a Huntmaster weakened by a Bruise (defense
    // 1, health 2): a hit, Elisa's Wound, then the Fatigue.
    let mut b = pos(&format!(
        "{}{}enemy 1 kind=Orc_Huntmaster area=quest seq=0 attach=Wound:_Bruise\nwound_deck Wound:_Gash\nfatigue_deck Fatigue:_Weary\n{}",
        game(1, ""),
        hero(1, "Elisa", 5, "Focus", "Burning_Hex"),
        responses(&[(1, 0)])
    ));
    attack(&mut b, &mut t, 0, card("Burning Hex"), 0, 0);
    play(&mut b, A::ResolveAttack, &mut t);
    assert!(traced(&t, "bonus: 1 Fatigue"), "{:?}", t.0);
    assert_eq!(
        b.enemies[0].attach.as_slice(),
        &[
            card("Wound: Bruise"),
            card("Wound: Gash"),
            card("Fatigue: Weary")
        ]
    );
}

#[test]
fn a_cult_priests_heal_takes_a_wound_first_from_each_wounded_orc_warrior_in_its_area() {
    // Old Friends, the Cult Priest's column 1: "heal Orc Warrior 2 / attack". Candidates: the
    // wounded Orc Warriors in the Priest's area (Bastian's: the orcs there attack him first,
    // and he takes each attack). Not: an unwounded one, a wounded Orc Archer. (Every enemy
    // is in Bastian's area: an Orc Warrior in the Quest Area would engage him before the
    // Priest acts.) Two candidates for a heal of 2: both healed, each of one attachment, a Wound first
    // (else the last Fatigue).
    let enemies = "enemy 1 kind=Cult_Priest area=1 seq=0 attach=-\n\
        enemy 2 kind=Orc_Warrior area=1 seq=1 attach=Wound:_Gash,Fatigue:_Weary\n\
        enemy 3 kind=Orc_Warrior area=1 seq=2 attach=-\n\
        enemy 4 kind=Orc_Archer area=1 seq=3 attach=Wound:_Gash\n\
        enemy 5 kind=Orc_Warrior area=1 seq=4 attach=Fatigue:_Weary,Fatigue:_Slow\n";
    let mut b = pos(&format!(
        "game scenario=Old_Friends heroes=1 threat=1 round=1 phase=hero pending=none\n{}{enemies}wound_deck Wound:_Gash,Wound:_Gash,Wound:_Gash,Wound:_Gash,Wound:_Gash\n{}",
        hero(1, "Bastian", 0, SEVEN_RALLY, "Rally"),
        responses(&[(1, 0); 12])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    while b.pending == Pending::Defend {
        play(&mut b, A::TakeAttack, &mut t);
    }
    assert!(traced(&t, "Cult Priest activates"), "{:?}", t.0);
    assert!(!traced(&t, "Cult Priest is unable to heal"), "{:?}", t.0);
    let attach = |b: &Beyond, slot: usize| b.enemies[slot].attach.as_slice().to_vec();
    assert_eq!(attach(&b, 1), vec![card("Fatigue: Weary")], "{:?}", t.0);
    assert_eq!(attach(&b, 4), vec![card("Fatigue: Weary")], "{:?}", t.0);
    assert_eq!(attach(&b, 2), Vec::<u8>::new());
    assert_eq!(
        attach(&b, 3),
        vec![card("Wound: Gash")],
        "not an Orc Warrior"
    );
}

#[test]
fn an_obstruct_takes_up_to_its_value_from_the_first_target_with_points() {
    // The Orc Archer's column 3, obstruct 2: Bastian with 3 points keeps 1.
    let (_, t) = bastian_ends_the_phase(
        "game scenario=Smoke_over_the_Village heroes=1 threat=1 round=1 phase=hero pending=none\n",
        3,
        "Rally",
        "enemy 1 kind=Orc_Archer area=quest seq=0 attach=-\n",
        &[(3, 0)],
    );
    assert!(
        traced(&t, "Orc Archer obstructs Bastian: -2 points"),
        "{:?}",
        t.0
    );
}

#[test]
fn enemies_of_one_kind_activate_in_the_order_they_came_into_play() {
    // Two Guards in Bastian's area; the one in slot 2 came into play first (seq 0): it
    // activates first and its attack is the one Bastian defends against.
    let (mut b, mut t) = bastian_ends_the_phase(
        &game(1, ""),
        0,
        "Rally",
        "enemy 1 kind=Guard area=1 seq=1 attach=-\nenemy 2 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n",
        &[(1, 0), (1, 0), (1, 0)],
    );
    assert_eq!(
        (b.pending, b.defend.enemy),
        (Pending::Defend, 1),
        "{:?}",
        t.0
    );
    play(&mut b, A::TakeAttack, &mut t);
    assert_eq!(
        (b.pending, b.defend.enemy),
        (Pending::Defend, 0),
        "{:?}",
        t.0
    );
}

#[test]
fn an_order_is_followed_by_the_other_orcs_in_the_area_then_the_activation_goes_on() {
    // The Huntmaster's column 1: "support Orc Archer / attack", then "orc disengage". An Orc
    // Archer and an Orc Warrior are in Bastian's area with it: the support would not move it
    // (the Archer is already in its area: unable), so it attacks; then it orders both orcs to
    // disengage, the one that came into play first (the Warrior, seq 1) first; each then
    // activates from the Quest Area in its row.
    let enemies = "enemy 1 kind=Orc_Huntmaster area=1 seq=0 attach=-\nenemy 2 kind=Orc_Archer area=1 seq=2 attach=-\nenemy 3 kind=Orc_Warrior area=1 seq=1 attach=-\n";
    let t = enemy_phase_trace(
        "The_Huntmaster's_Trail",
        "Rally",
        enemies,
        &[(1, 0), (1, 0), (1, 0), (1, 0)],
    );
    let events = &t.0;
    let at = |needle: &str| {
        events
            .iter()
            .position(|e| e.contains(needle))
            .unwrap_or_else(|| panic!("{needle}: {events:?}"))
    };
    let order = at("Orc Huntmaster orders: orc disengage");
    let warrior = at("Orc Warrior follows the order");
    let archer = at("Orc Archer follows the order");
    let activates = at("Orc Warrior activates (in the Quest Area)");
    assert!(
        order < warrior && warrior < archer && archer < activates,
        "{events:?}"
    );
    assert_eq!(
        events.iter().filter(|e| e.contains("orders")).count(),
        1,
        "{events:?}"
    );
    // The orderer does not follow its own order, and the order is its last action: the two
    // followers act, then the next row begins.
    assert_eq!(
        &events[order + 1..activates],
        [
            "Orc Warrior follows the order",
            "Orc Warrior disengages",
            "Orc Archer follows the order",
            "Orc Archer disengages"
        ],
        "{events:?}"
    );
}

#[test]
fn only_the_orcs_in_the_orderers_area_able_to_act_follow_an_order() {
    // Smoke over the Village, the Orc Warrior's column 3: "orc attack / attack". In the Quest
    // Area the Warrior cannot reach Bastian (range 1), the Orc Archer can (range 2): the first
    // Warrior orders, the Archer follows, the other Warrior (unable) does not.
    let enemies = "enemy 1 kind=Orc_Warrior area=quest seq=0 attach=-\nenemy 2 kind=Orc_Warrior area=quest seq=1 attach=-\nenemy 3 kind=Orc_Archer area=quest seq=2 attach=-\n";
    let t = enemy_phase_trace(
        "Smoke_over_the_Village",
        "Rally",
        enemies,
        &[(3, 0), (1, 0), (1, 0), (1, 0)],
    );
    assert!(traced(&t, "Orc Warrior orders: orc attack"), "{:?}", t.0);
    // (The second Warrior then activates and orders the Archer again.)
    assert!(traced(&t, "Orc Archer follows the order"), "{:?}", t.0);
    assert!(!traced(&t, "Orc Warrior follows the order"), "{:?}", t.0);
    // An orc in another hero's area is not ordered: the Huntmaster's "orc disengage" with the
    // Orc Warrior in Elisa's area (it could disengage) is unable.
    let mut b = pos(&format!(
        "game scenario=The_Huntmaster's_Trail heroes=2 threat=1 round=1 phase=hero pending=none\n{}{}enemy 1 kind=Orc_Huntmaster area=1 seq=0 attach=-\nenemy 2 kind=Orc_Warrior area=2 seq=1 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        hero(1, "Bastian", 0, SEVEN_RALLY, "Rally"),
        hero(
            2,
            "Elisa",
            0,
            "Focus,Focus,Focus,Focus,Focus,Focus,Focus",
            "Focus"
        ),
        responses(&[(1, 0), (1, 0), (1, 0), (1, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    // Bastian as the first target of the tie, then he takes the attack.
    for _ in 0..4 {
        match b.pending {
            Pending::PickTarget { .. } => play(&mut b, A::Target { hero: 0 }, &mut t),
            Pending::Defend => play(&mut b, A::TakeAttack, &mut t),
            _ => break,
        }
    }
    assert!(
        traced(
            &t,
            "Orc Huntmaster is unable to orc disengage: does nothing"
        ),
        "{:?}",
        t.0
    );
}

#[test]
fn the_quest_phase_refills_the_terrain_and_the_draw_phase_sets_points_from_the_hand_held() {
    // The tutorial keeps 1 terrain in play: with none and two in the deck, the top one (the
    // Side Door) comes into play. No enemy in play, threat 1: no spawn. Draw Phase: Bastian's
    // points are his board's 4 + the 2 cards he holds, then he draws up to his hand size.
    let mut b = pos(&format!(
        "game scenario={TUTORIAL} heroes=1 threat=1 round=1 phase=hero pending=none\n{}terrain_deck Rubble,Side_Door\n",
        hero(1, "Bastian", 0, SEVEN_RALLY, "Rally,Rally")
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(
        b.terrain.as_slice(),
        &[content::builtin().terrain_index("Side Door").unwrap()],
        "{:?}",
        t.0
    );
    assert_eq!(b.terrain_deck.len(), 1);
    assert_eq!(b.heroes[0].points, 6, "{:?}", t.0);
    assert_eq!(b.phase, Phase::Hero, "{:?}", t.0);
}

#[test]
fn more_enemies_in_play_than_the_overrun_limit_lose_at_the_quest_phase() {
    // Smoke over the Village: lost when more than 8 enemies are in play after the spawns.
    // Guards have no activation row there: they stand still through the Enemy Phase.
    let lost = |guards: usize| {
        let enemies: String = (1..=guards)
            .map(|i| format!("enemy {i} kind=Guard area=quest seq={} attach=-\n", i - 1))
            .collect();
        let mut b = pos(&format!(
            "game scenario=Smoke_over_the_Village heroes=1 threat=0 round=1 phase=hero pending=none\n{}{enemies}{}",
            hero(1, "Bastian", 0, SEVEN_RALLY, "Rally"),
            responses(&[(1, 0)])
        ));
        let mut t = VecTrace::default();
        play(&mut b, A::EndPhase, &mut t);
        (b.outcome(), t)
    };
    let (eight, t) = lost(8);
    assert_eq!(eight, None, "{:?}", t.0);
    let (nine, t) = lost(9);
    assert!(traced(&t, "LOST: overrun"), "{:?}", t.0);
    assert!(matches!(nine, Some(Outcome::Lost(_))));
}

/// The builtin content with the first `from` replaced by `to` (an edited content, for a case
/// no shipped card has), written to a temporary file named after `tag`: its path.
fn edited_content(tag: &str, from: &str, to: &str) -> std::path::PathBuf {
    let text = content::BUILTIN_TOML.replacen(from, to, 1);
    assert_ne!(
        text,
        content::BUILTIN_TOML,
        "{from} is in the builtin content"
    );
    let path =
        std::env::temp_dir().join(format!("sololab-beyond-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn an_allys_defense_is_beaten_by_the_enemys_attack_plus_the_response_value() {
    // Allies (CONTENT.md, "Allies"): the ally defends with its defense against the enemy's
    // attack + a Response card. Guard (column 1, "attack / engage") attack 3 + Response 0
    // against Guardian Spirit's defense 2: 3 > 2, a hit, a Wound attached to the Spirit.
    let mut b = ally_state("Guardian_Spirit", "Guard", &[(1, 0), (1, 0)]);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    play(&mut b, A::AllyTakes { ally: 0 }, &mut t);
    assert!(
        traced(&t, "3 + response 0 = 3 against defense 2"),
        "{:?}",
        t.0
    );
    assert_eq!(
        b.heroes[0].persist[0].attach.as_slice(),
        &[card("Wound: Gash")],
        "{:?}",
        t.0
    );
    assert_eq!(b.tally.wounds_taken, 0, "the hero took nothing");
}

#[test]
fn a_defense_card_committed_by_an_aiding_hero_goes_to_that_heros_discard_pile() {
    // Enemy Attacks: Elisa aids Bastian's defense with Flame Wall (range 2); after the attack
    // resolves (Guard 3 + 0 against Flame Wall's 2: a hit, a Wound to Bastian) the card goes
    // to its owner's discard pile, Elisa's, not the defender's.
    let mut b = pos(&format!(
        "{}hero 1 name=Bastian side=0 points=0 known=0 items=-,-,-,-,-\nhero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand Rally\nhero 2 name=Elisa side=0 points=3 known=0 items=-,-,-,-,-\nhero 2 deck Focus,Focus,Focus,Focus,Focus,Focus,Focus\nhero 2 hand Flame_Wall\nenemy 1 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash\n{}",
        game(2, ""),
        responses(&[(1, 0), (1, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    let wall = card("Flame Wall");
    defend(&mut b, &mut t, 1, wall, 0);
    play(&mut b, A::TakeAttack, &mut t);
    assert!(
        traced(&t, "= 3 against Bastian's defense 2: hit"),
        "{:?}",
        t.0
    );
    assert_eq!(b.heroes[1].discard.as_slice(), &[wall], "{:?}", t.0);
    assert!(b.heroes[0].discard.is_empty(), "{:?}", t.0);
}

#[test]
fn a_defense_options_bonus_effect_resolves_after_the_enemy_attack() {
    // Bonus (rulebook): Defense card effects marked Bonus resolve after the main action. No
    // shipped Defense option has one: an edited content whose Plate Guard (defense 2) also
    // gives 2 points. Two Guards attack Bastian (0 points); after the first attack (3 + 0
    // against 2: a hit) he holds 2 points when the second Guard's attack comes.
    let path = edited_content(
        "defense-bonus",
        r#"options = [{ type = "defense", range = 1, cost = 0, defense = 2 }]"#,
        r#"options = [{ type = "defense", range = 1, cost = 0, defense = 2, effects = [{ effect = "points", value = 2 }] }]"#,
    );
    let mut b = pos_in(
        path.to_str().unwrap(),
        &format!(
            "{}{}enemy 1 kind=Guard area=1 seq=1 attach=-\nenemy 2 kind=Guard area=1 seq=0 attach=-\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
            game(1, ""),
            hero(1, "Bastian", 0, SEVEN_RALLY, "Plate_Guard,Rally"),
            responses(&[(1, 0), (1, 0), (1, 0)])
        ),
    );
    let _ = std::fs::remove_file(&path);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    defend(&mut b, &mut t, 0, card("Plate Guard"), 0);
    play(&mut b, A::TakeAttack, &mut t);
    assert!(traced(&t, "against Bastian's defense 2: hit"), "{:?}", t.0);
    assert_eq!(
        (b.pending, b.defend.enemy, b.heroes[0].points),
        (Pending::Defend, 0, 2),
        "{:?}",
        t.0
    );
}

/// Bastian's Stand Firm turned into a lasting (`uses = 0`) persistent `stat` +`value` card (an
/// edited content: no shipped persistent card has a points, heal or draw effect), in his Hero
/// Area; `hand` in hand, the tutorial's Hero Phase, no enemies. After ending the phase.
fn lasting_stand_firm(stat: &str, value: u8, hand: &str) -> (Beyond, VecTrace) {
    let path = edited_content(
        &format!("lasting-{stat}"),
        r#"stat = "defense", value = 1, uses = 2 }"#,
        &format!(r#"stat = "{stat}", value = {value}, uses = 0 }}"#),
    );
    let mut b = pos_in(
        path.to_str().unwrap(),
        &format!(
            "{}{}hero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses=0 attach=-\n",
            game(1, ""),
            hero(1, "Bastian", 0, SEVEN_RALLY, hand)
        ),
    );
    let _ = std::fs::remove_file(&path);
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    (b, t)
}

#[test]
fn a_persistent_points_card_adds_to_the_draw_phase_points() {
    // Draw Phase: Action Points are set to the starting value + one per card held; a
    // persistent `points` card adds its value at that reset (CONTENT.md, "Persistent cards").
    // Bastian: board 4 + Stand Firm's (edited) 2 + the 2 cards he holds = 8.
    let (b, t) = lasting_stand_firm("points", 2, "Rally,Rally");
    assert_eq!((b.round, b.phase), (2, Phase::Hero), "{:?}", t.0);
    assert_eq!(b.heroes[0].points, 8, "{:?}", t.0);
}

#[test]
fn a_persistent_heal_card_heals_its_hero_in_the_end_phase() {
    // End Phase: the heroes' card effects resolve (CONTENT.md, "Persistent cards": `heal` in
    // the End Phase). Stand Firm edited to heal 1: the Gash Bastian holds goes back to its
    // pile after the Draw Phase (he drew up to 7: 6 Rally are left in hand).
    let gash = card("Wound: Gash");
    let (b, t) = lasting_stand_firm("heal", 1, "Rally,Wound:_Gash");
    assert_eq!((b.round, b.phase), (2, Phase::Hero), "{:?}", t.0);
    assert!(traced(&t, "Bastian heals Wound: Gash"), "{:?}", t.0);
    assert!(!b.heroes[0].hand.as_slice().contains(&gash), "{:?}", t.0);
    assert_eq!(b.heroes[0].hand.len(), 6);
}

#[test]
fn a_scenario_won_in_the_quest_phase_skips_the_draw_phase() {
    // Quest Phase, then the win check: the tutorial (terrain cleared) with no terrain in play
    // and none in its deck is won there; no Draw Phase follows (Bastian draws nothing, his
    // points stay).
    let mut b = pos(&format!(
        "game scenario={TUTORIAL} heroes=1 threat=1 round=1 phase=hero pending=none\n{}",
        hero(1, "Bastian", 3, SEVEN_RALLY, "Rally")
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(b.outcome(), Some(Outcome::Won), "{:?}", t.0);
    assert_eq!(
        (b.phase, b.heroes[0].hand.len(), b.heroes[0].points),
        (Phase::Over, 1, 3),
        "{:?}",
        t.0
    );
    assert!(!traced(&t, "-- draw phase --"), "{:?}", t.0);
    // In a campaign the win goes to the campaign step (Campaign Play): The Huntmaster's Trail
    // with no Orc Huntmaster in play or in its deck is won in the Quest Phase, and its reward
    // item (the top of the item deck) is offered at once, with no Draw Phase.
    let c = content::builtin();
    let mut b = campaign_state(
        "The_Huntmaster's_Trail",
        1,
        "hero 1 deck Rally,Rally,Rally,Rally,Rally,Rally,Rally\nhero 1 hand Rally\nitem_deck Iron_Helm,Chain_Shirt\n",
    );
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert_eq!(
        (b.phase, b.pending, b.tally.won),
        (
            Phase::Campaign,
            Pending::Equip {
                item: c.item_index("Chain Shirt").unwrap()
            },
            1
        ),
        "{:?}",
        t.0
    );
    assert!(!traced(&t, "-- draw phase --"), "{:?}", t.0);
}

#[test]
fn an_obstruct_passes_over_a_first_hero_without_points() {
    // Obstruct X (rulebook): a target hero in range loses X points; the targets are the heroes
    // with points (CONTENT.md, "Target priority ties"). Old Friends, column 3: the Orc Archer
    // (range 2) "obstruct 1 / attack" ranks Bastian first (no enemy engaged, one card in
    // hand), but he has no points: Elisa's 3 become 2. Then the Boneworm in her area, unable
    // to "insectoid attack" (no other insectoid), attacks her: her points are read there,
    // before the Draw Phase resets them.
    let mut b = pos(&format!(
        "game scenario=Old_Friends heroes=2 threat=1 round=1 phase=hero pending=none\n{}{}enemy 1 kind=Orc_Archer area=quest seq=0 attach=-\nenemy 2 kind=Boneworm area=2 seq=1 attach=-\n{}",
        hero(1, "Bastian", 0, SEVEN_RALLY, "Rally"),
        hero(
            2,
            "Elisa",
            3,
            "Focus,Focus,Focus,Focus,Focus,Focus,Focus",
            "Focus,Focus"
        ),
        responses(&[(3, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::EndPhase, &mut t);
    assert!(
        traced(&t, "Orc Archer obstructs Elisa: -1 points"),
        "{:?}",
        t.0
    );
    assert!(!traced(&t, "obstructs Bastian"), "{:?}", t.0);
    assert_eq!(
        (b.pending, b.defend.hero, b.defend.enemy),
        (Pending::Defend, 1, 1),
        "{:?}",
        t.0
    );
    assert_eq!(
        (b.heroes[0].points, b.heroes[1].points),
        (0, 2),
        "{:?}",
        t.0
    );
}

#[test]
fn an_activating_enemy_found_out_of_play_ends_its_activation_and_no_enemy_activates_twice() {
    // Enemy Activation: each enemy of a row activates once, top to bottom. No play leaves the
    // activating enemy's slot empty (enemies leave play only to hero attacks), but a position
    // can: the Guard in slot 1 has activated (done) and its attack is being defended, the
    // cursor names an empty slot 2 as the activating Guard. That activation ends; the Guard
    // does not activate again: the Enemy Phase ends and round 2 begins.
    let mut b = pos(&format!(
        "{}{}enemy 1 kind=Guard area=1 seq=0 attach=-\ndefend hero=1 enemy=1 total=0 spent=0 cards=-\ncursor column=1 row=1 enemy=2 act=0 eligible=3 done=1 rank=1,2,3,4 ranked=1 followers=0 order=0 follower=- ability=0 ability_value=0\nwound_deck Wound:_Gash,Wound:_Gash\n{}",
        game(1, "").replace("phase=hero pending=none", "phase=enemy pending=defend"),
        hero(1, "Bastian", 0, SEVEN_RALLY, "Rally"),
        responses(&[(1, 0), (1, 0), (1, 0)])
    ));
    let mut t = VecTrace::default();
    play(&mut b, A::TakeAttack, &mut t);
    assert_eq!(
        (b.round, b.phase, b.pending),
        (2, Phase::Hero, Pending::None),
        "{:?}",
        t.0
    );
    assert!(!traced(&t, "Guard activates"), "{:?}", t.0);
}

#[test]
fn an_enemy_summoned_into_the_slot_of_one_that_left_play_still_waits_a_phase() {
    // Summon (CONTENT.md, "Summon"): a summoned enemy does not activate in the phase it
    // arrives. A position no play reaches (enemies leave play only to hero attacks): the
    // cursor names an empty slot 2 as the activating Orc Huntmaster, in play when the phase
    // began. The Huntmaster in slot 1 then activates (column 3: "summon Orc Warrior") and the
    // Warrior takes the first free slot, that slot 2: it does not activate in the Orc
    // Warrior row; the Enemy Phase ends and round 2 begins.
    let mut b = pos(&format!(
        "game scenario=The_Huntmaster's_Trail heroes=1 threat=1 round=1 phase=enemy pending=intimidate:1:1\n{}enemy 1 kind=Orc_Huntmaster area=1 seq=0 attach=-\ncursor column=3 row=1 enemy=2 act=0 eligible=3 done=0 rank=1,2,3,4 ranked=1 followers=0 order=0 follower=- ability=0 ability_value=0\nwound_deck Wound:_Gash,Wound:_Gash\nfatigue_deck Fatigue:_Weary\n{}",
        hero(1, "Bastian", 0, SEVEN_RALLY, "Rally"),
        responses(&[(1, 0), (1, 0), (1, 0)])
    ));
    let mut t = VecTrace::default();
    play(
        &mut b,
        A::Discard {
            card: card("Rally"),
        },
        &mut t,
    );
    assert!(
        traced(&t, "Orc Huntmaster summons Orc Warrior"),
        "{:?}",
        t.0
    );
    assert_eq!(
        b.enemies[1].kind,
        content::builtin().enemy_index("Orc Warrior").unwrap(),
        "{:?}",
        t.0
    );
    assert!(!traced(&t, "Orc Warrior activates"), "{:?}", t.0);
    assert_eq!(
        (b.round, b.phase, b.pending),
        (2, Phase::Hero, Pending::None),
        "{:?}",
        t.0
    );
}

// ---------------------------------------------------------------------------------------------
// Features: the fast counts equal the rules' own reading

/// The features as the rules read them (every enemy's full stats, every hand card's kind),
/// written plainly: the reference for `Game::features`, whose hot path counts Wounds and
/// Fatigue by the content's id range and computes an enemy's Health alone.
fn reference_features(b: &Beyond) -> [f64; 12] {
    let mut f = [0.0; 12];
    for (i, e) in b.enemies.iter().enumerate() {
        if e.kind != NO_CARD {
            f[0] += 1.0;
            f[1] += b.enemy_stats(i).health.max(0) as f64;
            if e.area != QUEST {
                f[2] += 1.0;
            }
        }
    }
    let mut min_cards = f64::MAX;
    for h in &b.heroes[..b.n_heroes as usize] {
        let hand = h.hand.as_slice();
        let good = hand
            .iter()
            .filter(|&&c| b.content.cards[c as usize].kind == content::CardKind::Hero)
            .count() as f64;
        f[3] += hand.len() as f64 - good;
        f[4] += good;
        min_cards = min_cards.min(good);
        f[6] += h.points as f64;
    }
    f[5] = min_cards.min(8.0);
    f[7] = b.threat as f64;
    f[8] = (b.terrain.len() + b.terrain_deck.len()) as f64;
    f[9] = b.enemy_deck.len() as f64;
    f[10] = (b.wound_deck.len() + b.wound_discard.len()) as f64;
    f[11] = b.tally.won as f64;
    f
}

#[test]
fn features_equal_the_reference_reading_along_random_games() {
    // The shipped content lists Wounds and Fatigue first: the fast count's id range holds.
    let c = content::builtin();
    let wf = c
        .cards
        .iter()
        .filter(|k| k.kind != content::CardKind::Hero)
        .count() as u8;
    assert_eq!(c.index.wf_range, Some((0, wf)));
    assert!(wf > 0);
    let (mut states, mut with_wf, mut with_attach) = (0, 0, 0);
    for heroes in 1..=4 {
        let s = setup(&[("heroes", AxisValue::Int(heroes))]).unwrap();
        for seed in 0..15 {
            let mut r = GameRng::seed_from_u64(seed);
            let mut b = Beyond::new_game(&s, &mut r);
            let mut l = Vec::new();
            let mut f = [0.0; 12];
            loop {
                b.features(&mut f);
                assert_eq!(f, reference_features(&b), "heroes {heroes}, seed {seed}");
                states += 1;
                with_wf += (f[3] > 0.0) as u32;
                with_attach += b.enemies.iter().any(|e| !e.attach.is_empty()) as u32;
                b.legal_actions(&mut l);
                if l.is_empty() {
                    break;
                }
                let a = l[sololab::below(&mut r, l.len() as u32) as usize];
                b.apply(a, &mut r);
            }
        }
    }
    // The games reached hands with Wounds or Fatigue and enemies with attachments.
    assert!(
        states > 1000 && with_wf > 100 && with_attach > 10,
        "{states} {with_wf} {with_attach}"
    );
}

#[test]
fn the_state_display_shows_terrain_attachments_persistent_cards_and_decks() {
    let c = content::builtin();
    let terrain = |name: &str| &c.terrain[c.terrain.iter().position(|t| t.name == name).unwrap()];
    let (door, rubble) = (terrain("Side Door"), terrain("Rubble"));
    let b = pos(&format!(
        "game scenario={TUTORIAL} heroes=3 threat=1 round=1 phase=hero pending=none\n\
         terrain Side_Door,Rubble\n\
         hero 1 name=Bastian side=0 points=5 known=0 items=-,-,-,-,-\nhero 1 hand Longsword_Slash\n\
         hero 2 name=Niffil side=0 points=5 known=0 items=-,-,-,-,-\nhero 2 hand -\n\
         hero 3 name=Elisa side=0 points=5 known=0 items=-,-,-,-,-\nhero 3 hand -\n\
         hero 1 persist 1 card=Stand_Firm owner=1 opt=1 uses=2 attach=Wound:_Gash\n\
         hero 2 persist 1 card=Stand_Firm owner=2 opt=1 uses=1 attach=-\n\
         enemy 1 kind=Guard area=quest seq=0 attach=Wound:_Gash\n\
         enemy_deck Guard,Acolyte,Guard\nterrain_deck Rubble,Portcullis\n\
         wound_deck Wound:_Gash\nwound_discard Wound:_Bruise,Wound:_Sprain\n\
         fatigue_deck Fatigue:_Weary,Fatigue:_Weary\n{}",
        responses(&[(1, 0), (2, 1)])
    ));
    let text = b.to_string();
    let lines: Vec<&str> = text.lines().collect();
    // Three heroes: each terrain's values for three (a door has a defense, Rubble none).
    let door_line = format!(
        "  terrain Side Door in quest: value {}, defense {}",
        door.points[2], door.defense[2]
    );
    let rubble_line = format!("  terrain Rubble in quest: value {}", rubble.points[2]);
    assert_ne!(door.points[2], door.points[0]);
    assert!(lines.contains(&door_line.as_str()), "{text}");
    assert!(lines.contains(&rubble_line.as_str()), "{text}");
    assert!(
        lines.contains(&"    in play: Stand Firm (2 uses left) with Wound: Gash"),
        "{text}"
    );
    assert!(
        lines.contains(&"    in play: Stand Firm (1 use left)"),
        "{text}"
    );
    let guard = b.enemy_stats(0);
    let enemy_line = format!(
        "  enemy 1 Guard in quest: attack {} defense {} health {} (with Wound: Gash)",
        guard.attack, guard.defense, guard.health
    );
    assert!(lines.contains(&enemy_line.as_str()), "{text}");
    assert!(
        lines.contains(
            &"  decks: enemy 3, terrain 2, wound 1 (+2 discarded), fatigue 2 (+0 discarded), response 2"
        ),
        "{text}"
    );
}
