//! Cases B1-B8 of `../shared/cases/buried.md`, and one case for every other rule of issue 12,
//! each through the position format (`src/games/buried/position.rs`). Positions use the
//! builtin content with the default map (cards in content order, fronts up):
//!
//! ```text
//!  5 Mill Pond   6 Waterwheel | 7 Anvil      8 Coal Shed  | 9 Altar    10 Graveyard(skull)
//! 11 Taproom    12 Cellar     | 0 Village Square, corners 1 NW 2 NE 3 SW 4 SE | 13 Stalls 14 Fountain
//! 15 Barn       16 Fields     | 17 Old Well(tunnel) 18 Wash House | 19 Mine Shaft(tunnel) 20 Ore Cart
//! ```
//! Paths: 0-1,0-2,0-3,0-4; 1-8,1-11; 2-8,2-13; 3-11,3-17; 4-13,4-18; 5-6,5-11; 6-7,6-11; 7-8;
//! 8-9,8-10; 9-10; 10-13,10-14; 11-12; 12-15; 13-14,13-19; 14-19; 15-16; 16-17; 17-18;
//! 18-20; 19-20. Wave 1 camps (draw 1,2,3,4): black Banshee (bow, speed 2), white Goblin
//! (sword, speed 1); wave 2: Wraith (sword, villagers first), Goblin Archer; wave 3: Skeleton
//! (heals on a Health symbol), Wolf (drives villagers); wave 4: Bone Archer (wounds Speed),
//! Dire Wolf.

mod common;

use common::legal;

use sololab::games::buried::BuriedSetup;
use sololab::games::buried::actions::{BuriedAction as A, READY, VILLAGER};
use sololab::games::buried::state::{BOSS, Buried, GONE, NONE, ON_CARD, Phase, bit};
use sololab::{Game, GameRng, Outcome, Stream, VecTrace, stream_rng};

fn pos(lines: &str) -> Buried {
    common::parse(&format!("buried-position 1\n{lines}\n"))
}

fn rng() -> GameRng {
    stream_rng(1, 0, Stream::Chance)
}

fn act(b: &mut Buried, a: A) {
    common::act(b, a, &mut rng());
}

/// Runs the enemies' turn from a position whose `flow` is inside it.
fn run(b: &mut Buried) {
    b.run_enemies(&mut rng(), &mut VecTrace::default());
}

const ENEMY_MOVE: &str = "villagers ready=0\nflow phase=enemy stage=move";

// ---------------------------------------------------------------------------------------------
// B1: monster pathing

#[test]
fn b1_left_or_right_before_up_or_down_and_villagers_or_hero_do_not_block() {
    // Banshee (speed 2) at Mill Pond: 5-11-1-0 and 5-11-3-0 are equally short; from Taproom
    // the step to Town Hall is sideways, to Stables mostly down. A villager and the hero on
    // Taproom do not block it.
    let mut b = pos(&format!(
        "{ENEMY_MOVE}\ndie 1 at=5 hp=2\nvillagers placed=11 ready=0\nhero at=11"
    ));
    run(&mut b);
    assert_eq!(b.die_at[0], 1, "{b}");
}

#[test]
fn b1_takes_the_equal_path_around_a_monster() {
    // The Goblin on Town Hall (already moved) blocks the shortest path's second location; the
    // other equally short path (via Stables) is free.
    let mut b = pos(&format!(
        "{ENEMY_MOVE} done=64\ndie 1 at=5 hp=2\ndie 7 at=1 hp=1"
    ));
    run(&mut b);
    assert_eq!(b.die_at[0], 3, "{b}");
    assert_eq!(b.die_at[6], 1);
}

#[test]
fn b1_does_not_count_through_a_blocked_location() {
    // Altar's only 3-step path goes through Coal Shed, held by a monster: the Banshee takes
    // the 4-step path 9-10-13-(2|4)-0 and moves its 2 speed along it.
    let mut b = pos(&format!(
        "{ENEMY_MOVE} done=64\ndie 1 at=9 hp=2\ndie 7 at=8 hp=1"
    ));
    run(&mut b);
    assert_eq!(b.die_at[0], 13, "{b}");
}

#[test]
fn b1_a_monster_with_every_path_blocked_does_not_move() {
    let mut b = pos(&format!(
        "{ENEMY_MOVE} done=192\ndie 1 at=7 hp=2\ndie 7 at=6 hp=1\ndie 8 at=8 hp=1"
    ));
    run(&mut b);
    assert_eq!(b.die_at[0], 7, "{b}");
}

#[test]
fn b1_equal_paths_the_rules_leave_open_are_the_players_choice() {
    // The Goblin on Stables (6,4): Smithy Yard (5,3) and Shrine (5,5) are both diagonal steps.
    let mut b = pos("villagers ready=0\ndie 7 at=13 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(b.phase, Phase::Tie);
    assert_eq!(legal(&b), vec![A::Pick(2), A::Pick(4)]);
    act(&mut b, A::Pick(4));
    assert_eq!(b.die_at[6], 4);
    assert_eq!(b.phase, Phase::Place);
}

// ---------------------------------------------------------------------------------------------
// B2: a monster reaches the Village Center

#[test]
fn b2_arrival_removes_the_die_a_villager_flees_and_a_marker_covers_a_corner() {
    let mut b =
        pos("villagers placed=15 ready=1\nflow placements=12\ndie 7 at=1 hp=1\ndie 8 at=20 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(b.die_at[6], GONE);
    assert_eq!(b.phase, Phase::Flee);
    assert_eq!(legal(&b), vec![A::Pick(READY), A::Pick(15)]);
    act(&mut b, A::Pick(15));
    assert_eq!((b.fled, b.placed & bit(15)), (1, 0));
    assert_eq!(b.phase, Phase::Corner);
    assert_eq!(
        legal(&b),
        vec![A::Pick(1), A::Pick(2), A::Pick(3), A::Pick(4)]
    );
    act(&mut b, A::Pick(2));
    assert_eq!(b.markers, bit(2));
    assert_eq!(b.tally.markers, 1);
    // The player's turn: no villager on the covered corner nor the Village Center.
    assert_eq!(b.phase, Phase::Place);
    let l = legal(&b);
    assert!(
        !l.contains(&A::Place(2)) && !l.contains(&A::Place(0)),
        "{l:?}"
    );
    assert!(l.contains(&A::Place(1)));
}

#[test]
fn b2_a_fifth_marker_loses_at_once_village_overrun() {
    let mut b = pos("villagers ready=0\nmarkers at=1,2,3,4\ndie 7 at=1 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(b.outcome(), Some(Outcome::Lost(2)));
    assert_eq!(Buried::LOSS_CAUSES[2], "village_overrun");
}

// ---------------------------------------------------------------------------------------------
// B3: deploy and rotate

#[test]
fn b3_deploys_one_die_to_the_first_location_then_moves_clockwise() {
    // The black camp (Banshee) at spot 9 (west of the bottom-left card) deploys down its path
    // to Barn, whatever its speed; then the card moves to spot 10.
    let mut b = pos("villagers ready=0\nwave on_card=2,0\ndie 1 at=card hp=2\ndie 2 at=card hp=2");
    act(&mut b, A::EndTurn);
    assert_eq!((b.die_at[0], b.die_at[1]), (15, ON_CARD), "{b}");
    assert_eq!((b.camp_slot[0], b.on_card[0]), (10, 1));
    // Next turn: the first die moves first (2 speed toward the centre; Cellar and Fields are
    // equally short and neither step is sideways: the player's choice), then the second
    // deploys from spot 10 (west of the middle-left card, north half: Cellar).
    act(&mut b, A::EndTurn);
    assert_eq!(legal(&b), vec![A::Pick(12), A::Pick(16)]);
    act(&mut b, A::Pick(12));
    assert_eq!(b.die_at[0], 11, "{b}");
    assert_eq!(b.die_at[1], 12, "{b}");
    assert_eq!(b.camp_slot[0], 11);
}

#[test]
fn b3_a_monster_on_the_first_location_blocks_the_deploy() {
    let mut b = pos(
        "villagers ready=0\nwave on_card=1,0\ndie 1 at=card hp=2\ndie 7 at=15 hp=1\nflow phase=enemy stage=deploy",
    );
    run(&mut b);
    assert_eq!(b.die_at[0], ON_CARD);
    assert_eq!(b.on_card[0], 1);
    assert_eq!(b.camp_slot[0], 10, "the card still moves on");
}

// ---------------------------------------------------------------------------------------------
// B4: enemy attacks

const ATTACK: &str = "villagers ready=0\nflow phase=enemy stage=attack";

#[test]
fn b4_the_hero_before_a_villager_ranged_adjacent() {
    let mut b = pos(&format!(
        "{ATTACK}\nhero at=1\nvillagers placed=12\ndie 1 at=11 hp=2"
    ));
    run(&mut b);
    assert_eq!(b.stats[0], 3, "the Banshee hits the hero for 1");
    assert_eq!(b.fled, 0);
    // A bow does not reach its own location.
    let mut b = pos(&format!("{ATTACK}\nhero at=11\ndie 1 at=11 hp=2"));
    run(&mut b);
    assert_eq!(b.stats[0], 4);
}

#[test]
fn b4_melee_hits_its_own_location_and_a_villager_hit_flees() {
    let mut b = pos(&format!(
        "{ATTACK}\nhero at=16\nvillagers placed=15,16 supply=3\ndie 7 at=15 hp=1"
    ));
    run(&mut b);
    assert_eq!(
        b.stats[0], 4,
        "the hero on Fields is out of a sword's reach"
    );
    assert_eq!((b.fled, b.tally.fled), (1, 1));
    assert_eq!(b.outcome(), None);
}

#[test]
fn b4_a_card_that_targets_villagers_first() {
    // Wave 2: the black camp is the Wraith (villagers first).
    let mut b = pos(&format!(
        "{ATTACK}\nwave number=2\nhero at=12\nvillagers placed=12,5 supply=2\ndie 1 at=12 hp=2"
    ));
    run(&mut b);
    assert_eq!(b.stats[0], 4);
    assert_eq!(b.fled, 1);
}

#[test]
fn b4_several_villagers_in_range_the_player_chooses() {
    let mut b = pos(&format!(
        "{ATTACK}\nhero at=20\nvillagers placed=5,12\ndie 1 at=11 hp=2"
    ));
    run(&mut b);
    assert_eq!(b.phase, Phase::Victim);
    assert_eq!(legal(&b), vec![A::Pick(5), A::Pick(12)]);
    act(&mut b, A::Pick(12));
    assert_eq!(b.placed, 0, "villagers come back at the player's turn");
    assert_eq!((b.fled, b.ready), (1, 1));
}

#[test]
fn b4_the_hero_at_0_health_loses_hero_defeated() {
    let mut b = pos(&format!(
        "{ATTACK}\nhero at=1 stats=1,3,2,2\ndie 1 at=11 hp=2"
    ));
    run(&mut b);
    assert_eq!(b.outcome(), Some(Outcome::Lost(1)));
    assert_eq!(Buried::LOSS_CAUSES[1], "hero_defeated");
    // A wound to Speed at 1 loses too (wave 4's Bone Archer).
    let mut b = pos(&format!(
        "{ATTACK}\nwave number=4\nhero at=1 stats=4,3,2,1\ndie 1 at=11 hp=1"
    ));
    run(&mut b);
    assert_eq!(b.stats[0], 3);
    assert_eq!(b.outcome(), Some(Outcome::Lost(1)));
}

// ---------------------------------------------------------------------------------------------
// B5: placing a villager

#[test]
fn b5_crossed_out_symbols_first_then_each_stat_symbol_gives_a_choice() {
    // Anvil: +D +D -S. Speed 2 -> 1 before anything; then two Damage symbols.
    let mut b = pos("die 7 at=1 hp=6");
    act(&mut b, A::Place(7));
    assert_eq!(b.stats[3], 1);
    assert_eq!(b.phase, Phase::Symbol);
    assert_eq!(legal(&b), vec![A::Gain, A::Attack(1)]);
    act(&mut b, A::Gain);
    assert_eq!(b.stats[2], 3);
    act(&mut b, A::Attack(1));
    assert_eq!(
        b.die_hp[6], 3,
        "the attack deals the damage before spending"
    );
    assert_eq!(b.stats[2], 2);
    assert_eq!(b.phase, Phase::Place);
}

#[test]
fn b5_a_crossed_out_symbol_taking_speed_to_0_loses() {
    let mut b = pos("hero stats=4,3,2,1\ndie 7 at=20 hp=1");
    act(&mut b, A::Place(7));
    assert_eq!(b.outcome(), Some(Outcome::Lost(1)));
}

#[test]
fn b5_at_1_the_action_is_free_and_mana_may_reach_0() {
    let mut b = pos("hero stats=4,1,1,2\ndie 7 at=1 hp=1\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(2)); // Smithy Yard: +D
    act(&mut b, A::Attack(1));
    assert_eq!(b.stats[2], 1, "damage stays at 1");
    assert_eq!(b.die_at[6], GONE);
    act(&mut b, A::Place(4)); // Shrine: +M
    assert!(legal(&b).contains(&A::Skill(1)));
    act(&mut b, A::Skill(1)); // Force Wall
    assert_eq!(b.stats[1], 0, "mana is spent to 0");
    // With Mana 0 no skill is offered.
    let mut b = pos("hero stats=4,0,2,2\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(4));
    assert_eq!(legal(&b), vec![A::Gain]);
}

#[test]
fn b5_never_on_the_centre_a_villager_an_enemy_or_a_marker() {
    let b = pos("villagers placed=5 ready=1\nmarkers at=3\ndie 7 at=1 hp=1");
    let l = legal(&b);
    for bad in [0, 1, 3, 5] {
        assert!(!l.contains(&A::Place(bad)), "{bad}: {l:?}");
    }
    assert!(l.contains(&A::Place(2)) && l.contains(&A::Place(6)));
    assert!(!l.contains(&A::EndTurn), "ready villagers must be placed");
}

// ---------------------------------------------------------------------------------------------
// B6: actions

#[test]
fn b6_ranged_hits_adjacent_melee_its_own_location() {
    let b = pos(
        "hero at=11 stats=4,3,2,2\ndie 7 at=11 hp=1\ndie 8 at=12 hp=1\nflow phase=symbol sym=6,1\nvillagers placed=6 ready=1",
    );
    // The Mage (bow) on Taproom: Waterwheel's second symbol is +D.
    assert_eq!(legal(&b), vec![A::Gain, A::Attack(12)]);
    let b = pos(
        "hero name=Knight at=11\ndie 7 at=11 hp=1\ndie 8 at=12 hp=1\nflow phase=symbol sym=6,1\nvillagers placed=6 ready=1",
    );
    assert_eq!(legal(&b), vec![A::Gain, A::Attack(11)]);
}

#[test]
fn b6_move_up_to_the_speed_before_spending_lost_on_another_action() {
    let mut b = pos("hero stats=4,3,2,3\ndie 7 at=9 hp=1\ndie 8 at=20 hp=1\nvillagers ready=2");
    act(&mut b, A::Place(16)); // Fields: +S
    act(&mut b, A::Move);
    assert_eq!((b.move_left, b.stats[3]), (3, 2));
    act(&mut b, A::Step(1));
    act(&mut b, A::Step(8));
    assert_eq!((b.hero_at, b.move_left), (8, 1));
    act(&mut b, A::Place(2)); // Smithy Yard: +D; placing is not an action: speed kept
    assert_eq!(b.move_left, 1);
    act(&mut b, A::Attack(9));
    assert_eq!(
        b.move_left, 0,
        "unused speed is lost when another action is taken"
    );
}

#[test]
fn b6_hidden_tunnels_for_1_speed() {
    let b = pos("hero at=17\nflow phase=place\nhero move=1\nvillagers ready=0\ndie 8 at=5 hp=1");
    let l = legal(&b);
    assert!(l.contains(&A::Step(19)), "Old Well to Mine Shaft: {l:?}");
    let b = pos("hero at=16\nhero move=1\nvillagers ready=0\ndie 8 at=5 hp=1");
    assert!(!legal(&b).contains(&A::Step(19)));
}

#[test]
fn b6_skill_costs_mana_sets_its_cool_down_which_drops_each_turn_and_leaves_at_1() {
    let mut b = pos("villagers ready=1\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(4)); // Shrine: +M
    act(&mut b, A::Skill(1)); // Force Wall [3]
    assert_eq!((b.stats[1], b.cooldown[1]), (2, 3));
    assert_eq!(b.phase, Phase::Target);
    let l = legal(&b);
    assert!(l.contains(&A::Wall(1, 8)), "{l:?}");
    act(&mut b, A::Wall(1, 8));
    assert_eq!(b.wall, [1, 8]);
    assert_eq!(
        b.enemy_adj[1] & bit(8),
        0,
        "enemies cannot use the walled path"
    );
    assert_ne!(b.adj[1] & bit(8), 0, "the hero can");
    act(&mut b, A::EndTurn);
    assert_eq!(b.cooldown[1], 2);
    let mut b = pos("hero cooldown=1,0,0\nvillagers ready=0\ndie 8 at=20 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(b.cooldown[0], 0, "a die at 1 leaves");
}

#[test]
fn b6_rally_collects_up_to_the_health_before_spending_not_from_skulls() {
    let mut b =
        pos("hero stats=3,3,2,2\nvillagers placed=5,6,10 ready=1 supply=1\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(1)); // Town Hall: +H
    act(&mut b, A::Rally);
    assert_eq!(b.stats[0], 2);
    assert_eq!(
        legal(&b),
        vec![A::Pick(1), A::Pick(5), A::Pick(6), A::Stop],
        "not Graveyard (skull)"
    );
    act(&mut b, A::Pick(5));
    act(&mut b, A::Pick(6));
    act(&mut b, A::Pick(1));
    assert_eq!(b.phase, Phase::Place, "3 collected: the Rally is over");
    assert_eq!((b.ready, b.placed), (3, bit(10)));
    assert!(
        legal(&b).contains(&A::Place(5)),
        "rallied villagers are placed again this turn"
    );
}

// ---------------------------------------------------------------------------------------------
// B7: waves

#[test]
fn b7_a_die_on_each_square_up_to_the_wave_at_the_camps_health() {
    for (wave, black, white, names) in [
        (1, 1, 2, ("Banshee", "Goblin")),
        (2, 3, 2, ("Wraith", "Goblin Archer")),
        (3, 3, 3, ("Skeleton", "Wolf")),
        (4, 5, 4, ("Bone Archer", "Dire Wolf")),
    ] {
        let mut b = pos(&format!("wave number={wave} draw=1,2,3,4 first_side=0,0"));
        b.setup_wave(&mut rng(), false);
        assert_eq!(
            (b.camp(0).name.as_str(), b.camp(1).name.as_str()),
            names,
            "wave {wave}"
        );
        assert_ne!(b.camp(0).mark, b.camp(1).mark);
        assert_eq!(b.on_card, [black, white], "wave {wave}");
        let hp0 = b.camp(0).health;
        assert!(b.die_at[..black as usize].iter().all(|&a| a == ON_CARD));
        assert!(b.die_hp[..black as usize].iter().all(|&h| h == hp0));
        assert_eq!(b.camp_slot, [9, 3]);
    }
}

#[test]
fn b7_a_cleared_wave_resets_and_a_villager_joins() {
    let mut b =
        pos("hero at=11 stats=2,1,1,1 cooldown=1,2,0\nvillagers placed=5 fled=1 ready=0 supply=3");
    act(&mut b, A::EndTurn);
    assert_eq!(b.wave, 2);
    assert_eq!(b.tally.waves, 1);
    assert_eq!((b.ready, b.fled, b.supply, b.placed), (3, 0, 2, 0));
    assert_eq!(b.stats, [4, 3, 2, 2]);
    assert_eq!(b.cooldown, [0, 0, 0]);
    assert_eq!(b.hero_at, 0);
    assert_eq!(
        b.on_card[0] + b.on_card[1],
        5 - 2,
        "wave 2's dice, two deployed"
    );
}

#[test]
fn b7_after_wave_4_the_boss_enters_and_the_hero_no_longer_returns() {
    let mut b = pos(
        "wave number=4\nhero at=11\nvillagers ready=0 supply=0\nmarkers at=1,2\nboss name=The_Monstrosity",
    );
    act(&mut b, A::EndTurn);
    assert!(b.boss_up);
    assert_eq!(b.markers, 0, "Boss markers return to the supply");
    // Town Hall and Stables are equally short toward Taproom: the player's choice.
    assert_eq!(legal(&b), vec![A::Pick(1), A::Pick(3)]);
    act(&mut b, A::Pick(3));
    // It moved its 2 speed from the Village Center to the hero on Taproom and attacked.
    assert_eq!(b.boss_at, 11, "{b}");
    assert_eq!(b.stats[0], 2);
    assert_eq!(b.hero_at, 11, "the hero stays where it is");
}

// ---------------------------------------------------------------------------------------------
// B8: the boss

#[test]
fn b8_the_boss_moves_its_full_speed_toward_the_hero() {
    let mut b = pos(
        "wave number=4\nvillagers ready=0 supply=0\nhero at=15\nboss up=1 at=11\nflow phase=enemy stage=boss_move",
    );
    run(&mut b);
    assert_eq!(b.boss_at, 15);
    assert_eq!(b.stats[0], 2, "then attacks like a monster");
}

#[test]
fn b8_armor_caps_the_damage_of_one_attack() {
    let mut b = pos(
        "wave number=4\nvillagers ready=1 supply=0\nhero name=Knight at=2 stats=6,2,5,2\nboss up=1 at=2 stats=6,2,2,3\nflow phase=symbol sym=7,0\nvillagers placed=7 ready=0 supply=0",
    );
    act(&mut b, A::Attack(2)); // Anvil's first +D
    assert_eq!(b.boss_stats[0], 3, "5 damage, armor 3");
    assert_eq!(b.stats[2], 4);
}

#[test]
fn b8_a_villager_when_no_hero_is_in_range_and_the_monstrosity_gains_2() {
    let mut b = pos(
        "wave number=4\nvillagers placed=8,20 ready=0 supply=0\nhero at=20\nboss up=1 at=8 stats=3,2,2,3\nflow phase=enemy stage=boss_attack",
    );
    run(&mut b);
    assert_eq!(b.fled, 1);
    assert_eq!(b.boss_stats[0], 5);
}

#[test]
fn b8_the_boss_at_0_health_wins() {
    let mut b = pos(
        "wave number=4\nvillagers placed=7 ready=0 supply=0\nhero at=0 stats=4,3,2,2\nboss name=The_Devourer up=1 at=1 stats=1,3,1,2\nflow phase=symbol sym=7,0",
    );
    act(&mut b, A::Attack(1));
    assert_eq!(b.outcome(), Some(Outcome::Won));
}

#[test]
fn b8_the_monstrosity_covers_a_skull_and_rises_until_none_is_left() {
    // One skull on the map (Graveyard: +M +M): the first defeat covers it, health back to 4,
    // the shown stats gained (Mana read as Armor: +2); the next defeat wins.
    let mut b = pos(
        "wave number=4\nvillagers placed=7 ready=0 supply=0\nhero at=0 stats=4,3,2,2\nboss up=1 at=1 stats=1,2,2,3\nflow phase=symbol sym=7,0",
    );
    act(&mut b, A::Attack(1));
    assert_eq!(b.outcome(), None);
    assert_eq!(b.markers, bit(10));
    assert_eq!(b.boss_stats, [4, 2, 2, 5]);
    b.boss_stats[0] = 1;
    act(&mut b, A::Attack(1));
    assert_eq!(b.outcome(), Some(Outcome::Won));
}

#[test]
fn b8_every_villager_fled_loses_villagers_fled() {
    let mut b = pos(&format!(
        "{ATTACK}\nhero at=20\nvillagers placed=15 fled=1 ready=0 supply=3\ndie 7 at=15 hp=1"
    ));
    run(&mut b);
    assert_eq!(b.outcome(), Some(Outcome::Lost(0)));
    assert_eq!(Buried::LOSS_CAUSES[0], "villagers_fled");
}

// ---------------------------------------------------------------------------------------------
// Moving villagers (section 5), setup (section 2), camp skills, restarts

#[test]
fn moved_by_a_monster_only_negative_effects_apply() {
    // Wave 3: the Wolf drives villagers. From Mill Pond it enters Taproom (a villager), which
    // the player drives to Cellar (+M -S): Speed -1, no Mana.
    let mut b = pos("wave number=3\nvillagers placed=11 ready=0 supply=1\ndie 7 at=5 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(b.phase, Phase::Push, "{b}");
    assert_eq!(
        legal(&b),
        vec![A::Pick(1), A::Pick(3), A::Pick(5), A::Pick(6), A::Pick(12)]
    );
    act(&mut b, A::Pick(12));
    assert_eq!((b.stats[1], b.stats[3]), (3, 1));
    assert_eq!(b.die_at[6], 1, "then it goes on");
}

#[test]
fn moved_by_a_hero_skill_only_positive_effects_apply() {
    // Gale Winds on the villager on Mill Pond to Waterwheel (+S +D).
    let mut b = pos("villagers placed=5 ready=1\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(4)); // Shrine: +M
    act(&mut b, A::Skill(0));
    act(&mut b, A::Pick(5 | VILLAGER));
    act(&mut b, A::Pick(6));
    assert_eq!(b.placed, bit(4) | bit(6));
    assert_eq!((b.stats[2], b.stats[3]), (3, 3));
}

#[test]
fn setup_places_the_tunnels_opposite_two_villagers_ready_wave_1() {
    let setup = BuriedSetup::resolve(&Default::default()).expect("default");
    for seed in 0..60 {
        let b = Buried::new_game(&setup, &mut stream_rng(seed, 0, Stream::Setup));
        let [a, t] = b.tunnels;
        assert!(a != NONE && t != NONE);
        assert_eq!(
            sololab::games::buried::rules::pos_of(a) + sololab::games::buried::rules::pos_of(t),
            8,
            "tunnel cards opposite"
        );
        assert_eq!((b.supply, b.wave, b.turn), (3, 1, 1));
        assert_eq!(b.ready + b.placed.count_ones() as u8 + b.fled, 2);
        assert_ne!(b.camp(0).mark, b.camp(1).mark, "icon matching");
        assert_eq!(b.stats, b.hero_card().stats);
    }
}

#[test]
fn camp_skills_heal_drain_and_trap() {
    // Wave 3 Skeleton heals entering a Health symbol (Taproom +H +S).
    let mut b = pos("wave number=3\nvillagers ready=0 supply=1\ndie 1 at=5 hp=2");
    act(&mut b, A::EndTurn);
    assert_eq!((b.die_at[0], b.die_hp[0]), (11, 3));
    // The Banshee defeated by a hero with Mana >= 2 drains 1 Mana.
    let mut b = pos(
        "villagers placed=2 ready=0\ndie 1 at=1 hp=2\ndie 8 at=20 hp=1\nflow phase=symbol sym=2,0",
    );
    act(&mut b, A::Attack(1));
    assert_eq!((b.die_at[0], b.stats[1]), (GONE, 2));
    // The Ranger's Trap: the first monster to enter stops and takes 2.
    let mut b = pos(
        "hero name=Ranger\npieces trap=11\nvillagers ready=0\ndie 1 at=5 hp=2\ndie 8 at=20 hp=1",
    );
    act(&mut b, A::EndTurn);
    assert_eq!(b.die_at[0], GONE);
    assert_eq!(b.trap, NONE);
}

#[test]
fn wave_retries_restart_the_wave_after_a_loss() {
    let mut b = pos(
        "villagers ready=0\nmarkers at=1,2,3,4\nstart markers=1,2,3\ndie 7 at=1 hp=1\nflow retries=1,0",
    );
    act(&mut b, A::EndTurn);
    assert_eq!(b.outcome(), None);
    assert_eq!(b.retries_used, 1);
    assert_eq!(b.markers, bit(1) | bit(2) | bit(3));
    let mut m = [0i64; 7];
    b.metrics(&mut m);
    assert_eq!(m[6], 1, "wave_restarts");
    let _ = BOSS;
}

#[test]
fn position_text_round_trips_a_hand_written_state() {
    let b = pos(
        "wave number=2 on_card=0,1\nhero name=Hunter at=7 stats=3,2,1,4 cooldown=0,2,1 move=2\npieces wall=1-8 trap=12\nvillagers placed=5,6 ready=1 fled=1 supply=1\ndie 3 at=14 hp=2\ndie 9 at=card hp=1\nmarkers at=4",
    );
    let again = Buried::from_position(&b.to_position()).expect("reads back");
    assert_eq!(again, b);
    let e = Buried::from_position("buried-position 1\nhero name=Wizard\n").expect_err("refused");
    assert_eq!(e.line, 2);
    assert!(
        e.message.contains("unknown hero 'Wizard' (valid: Mage"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input: names and content files

fn setup_err(pairs: &[(&str, &str)]) -> String {
    let mut v = sololab::SetupValues::new();
    for (k, val) in pairs {
        v.insert(k.to_string(), sololab::AxisValue::Name(val.to_string()));
    }
    Buried::resolve_setup(&v).expect_err("refused").0
}

#[test]
fn unknown_hero_boss_or_camp_names_list_the_valid_ones() {
    let e = setup_err(&[("hero", "Wizard")]);
    assert_eq!(
        e,
        "axis 'hero': unknown hero 'Wizard' (valid: random, Mage, Archmage, Ranger, Hunter, Knight, Paladin)"
    );
    let e = setup_err(&[("boss", "Dragon")]);
    assert_eq!(
        e,
        "axis 'boss': unknown boss 'Dragon' (valid: random, The Monstrosity, The Devourer)"
    );
    let e = setup_err(&[("camps", "Banshee,Goblin,Troll,Kraken")]);
    assert!(e.starts_with("axis 'camps': unknown camp 'Kraken' (valid: random, Banshee/Wraith, Goblin/Goblin Archer"), "{e}");
    assert_eq!(e.lines().count(), 1);
}

#[test]
fn a_broken_content_file_is_refused_in_one_line_naming_file_entry_and_field() {
    let text = include_str!("../src/games/buried/content/buried.toml");
    let dir = std::env::temp_dir().join(format!("buried-bad-content-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, from, to, expect) in [
        (
            "path.toml",
            "paths = [[\"Mill Pond\", \"Waterwheel\"]]",
            "paths = [[\"Mill Pond\", \"Nowhere\"]]",
            "village 'Mill': field 'front.paths[1]': unknown place 'Nowhere'",
        ),
        (
            "symbol.toml",
            "symbols = [\"health\", \"-mana\"]",
            "symbols = [\"health\", \"luck\"]",
            "village 'Mill': field 'front.places[1].symbols[2]': unknown symbol 'luck'",
        ),
        (
            "tunnels.toml",
            "{ name = \"Wash House\", at = \"e\", symbols = [\"health\", \"-speed\"] }",
            "{ name = \"Wash House\", at = \"e\", symbols = [\"health\", \"-speed\"], tunnel = true }",
            "village 'Well House': field 'front.places[2].tunnel': two Hidden Tunnels",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write");
        let e = setup_err(&[("content", path.to_str().expect("utf-8 path"))]);
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(e.contains(expect), "{e}");
        assert_eq!(e.lines().count(), 1);
    }
    // A card without its back side.
    let start = text.find("\n[camp.back]").expect("a camp back");
    let end = start + text[start + 1..].find("\n[[camp]]").expect("next camp") + 1;
    let path = dir.join("side.toml");
    std::fs::write(&path, format!("{}{}", &text[..start], &text[end..])).expect("write");
    let e = setup_err(&[("content", path.to_str().expect("utf-8 path"))]);
    assert!(
        e.contains("camp 1: field 'back': missing: a card has a front and a back"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// The heuristic feature `engage` (not a rule: what the hero can still strike this turn)

#[test]
fn engage_counts_enemies_within_unused_speed_and_the_attack_reach() {
    // A sword (Knight) strikes only its own location: the Goblin on Taproom (11), not the one
    // on Cellar (12) next to it, until one step of speed is left.
    let sword = |mv: u8| {
        pos(&format!(
            "hero name=Knight at=11 move={mv}\nvillagers ready=0\ndie 7 at=11 hp=1\ndie 8 at=12 hp=1"
        ))
    };
    assert_eq!(sword(0).engage(), 1);
    assert_eq!(sword(1).engage(), 2);
    // A bow (Ranger) strikes adjacent locations only: Cellar, not its own Taproom.
    let bow = pos("hero name=Ranger at=11\nvillagers ready=0\ndie 7 at=11 hp=1\ndie 8 at=12 hp=1");
    assert_eq!(bow.engage(), 1);
    // The Hidden Tunnels jump (Old Well 17 -> Mine Shaft 19) is one step.
    let tunnel = |mv: u8| {
        pos(&format!(
            "hero name=Knight at=17 move={mv}\nvillagers ready=0\ndie 8 at=19 hp=1"
        ))
    };
    assert_eq!((tunnel(0).engage(), tunnel(1).engage()), (0, 1));
}
