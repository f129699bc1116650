//! Details of Buried Beneath's rules that the rulebook's cases (`tests/buried_cases.rs`) leave
//! open, each found by mutation testing (`scripts/mutants.sh`, issue 12;
//! `results/mutants/buried.md` lists which mutant each test kills). Positions use the builtin
//! content with the default map of `tests/buried_cases.rs` (Taproom 11 is next to Mill Pond 5
//! and Cellar 12).

mod common;

use common::legal;

use sololab::games::buried::actions::BuriedAction as A;
use sololab::games::buried::state::{Buried, GONE, NONE, Phase};
use sololab::{Stream, VecTrace, stream_rng};

fn pos(lines: &str) -> Buried {
    common::parse(&format!("buried-position 1\n{lines}\n"))
}

#[test]
fn the_villagers_a_die_can_hit_follow_its_own_camps_reach() {
    // Attacks (section 7): a bow hits the adjacent locations, a sword its own. A die's camp is
    // the first for dice 1-6 and the second for dice 7-12. With two villagers in reach the
    // player picks the one hit (Phase::Victim).
    let attack =
        "villagers ready=0\nflow phase=enemy stage=attack\nhero at=20\nvillagers placed=5,12";
    // Wave 1: die 2 is the first camp's, the Banshee (bow); the second camp, the Goblin, has a
    // sword and would reach neither villager from Taproom.
    let mut b = pos(&format!("{attack}\ndie 2 at=11 hp=2"));
    b.run_enemies(
        &mut stream_rng(1, 0, Stream::Chance),
        &mut VecTrace::default(),
    );
    assert_eq!(b.phase, Phase::Victim);
    assert_eq!(legal(&b), vec![A::Pick(5), A::Pick(12)]);
    // Wave 2: die 7 is the second camp's, the Goblin Archer (bow); the first camp, the Wraith,
    // has a sword.
    let mut b = pos(&format!("{attack}\nwave number=2\ndie 7 at=11 hp=2"));
    b.run_enemies(
        &mut stream_rng(1, 0, Stream::Chance),
        &mut VecTrace::default(),
    );
    assert_eq!(b.phase, Phase::Victim);
    assert_eq!(legal(&b), vec![A::Pick(5), A::Pick(12)]);
}

fn act(b: &mut Buried, a: A) {
    common::act(b, a, &mut stream_rng(1, 0, Stream::Chance));
}

fn act_traced(b: &mut Buried, a: A) -> Vec<String> {
    common::act_traced(b, a, &mut stream_rng(1, 0, Stream::Chance))
}

#[test]
fn a_rally_ends_when_it_has_collected_its_health_though_villagers_are_left() {
    // Rally (section 9): collect up to the Health value of placed villagers. Health 3 after
    // Town Hall's +H is spent (pre-spent value 3): the third pick ends the Rally with two
    // collectible villagers still on the map.
    let mut b =
        pos("hero stats=3,3,2,2\nvillagers placed=5,6,12,15 ready=1 supply=0\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(1)); // Town Hall: +H
    act(&mut b, A::Rally);
    act(&mut b, A::Pick(5));
    act(&mut b, A::Pick(6));
    assert_eq!(b.phase, Phase::Rally, "two of three collected");
    act(&mut b, A::Pick(12));
    assert_eq!(b.phase, Phase::Place, "three collected: the Rally is over");
    assert_eq!(b.ready, 3);
    assert_ne!(b.placed & (1 << 1), 0, "Town Hall's villager stays");
    assert_ne!(b.placed & (1 << 15), 0, "Barn's villager stays");
}

#[test]
fn gale_winds_blows_a_monster_along_an_enemy_path_and_hurts_it() {
    // Gale Winds (the Mage's first skill, amount 1): pick a monster, then a free location it
    // could walk to; it moves there and takes 1 damage.
    let mut b = pos("villagers ready=1\ndie 1 at=11 hp=2\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(4)); // Shrine: +M
    act(&mut b, A::Skill(0));
    assert_eq!(b.phase, Phase::Target);
    act(&mut b, A::Pick(11));
    assert_eq!(b.phase, Phase::Target, "then the destination");
    let want: Vec<A> = (0..21u8)
        .filter(|&l| b.enemy_adj[11] & (1 << l) != 0 && l != 0)
        .map(A::Pick)
        .collect();
    assert!(want.contains(&A::Pick(12)), "{want:?}");
    assert_eq!(legal(&b), want, "the monster's own paths, not a villager's");
    act(&mut b, A::Pick(12));
    assert_eq!((b.die_at[0], b.die_hp[0]), (12, 1));
}

#[test]
fn chain_lightning_with_one_monster_beside_bounces_to_it_without_a_choice() {
    // Chain Lightning (the Mage's third skill, amount 2): the bolt hits the picked location,
    // then bounces to a monster adjacent to it; with exactly one, no choice is asked. The Mage
    // at Waterwheel (bow) reaches Taproom.
    let mut b =
        pos("hero at=6\nvillagers ready=1\ndie 1 at=11 hp=2\ndie 2 at=12 hp=2\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(4)); // Shrine: +M
    act(&mut b, A::Skill(2));
    act(&mut b, A::Pick(11));
    assert_eq!(b.die_at[0], GONE, "struck for 2");
    assert_eq!(b.die_at[1], GONE, "the bounce struck Cellar for 2");
    assert_ne!(b.phase, Phase::Target, "no bounce target to pick");
}

#[test]
fn the_rangers_trap_is_set_where_the_player_picks() {
    let mut b = pos("hero name=Ranger\nvillagers ready=1\ndie 1 at=11 hp=2\ndie 8 at=20 hp=1");
    assert_eq!(b.trap, NONE);
    act(&mut b, A::Place(4)); // Shrine: +M
    act(&mut b, A::Skill(0));
    assert_eq!(b.phase, Phase::Target);
    act(&mut b, A::Pick(2));
    assert_eq!(b.trap, 2);
}

#[test]
fn the_trace_says_when_the_hero_takes_the_hidden_tunnels() {
    // Hidden Tunnels (section 9): Old Well 17 to Mine Shaft 19 is no path; Old Well to Wash
    // House 18 is.
    let start = "hero at=17\nflow phase=place\nhero move=1\nvillagers ready=0\ndie 8 at=5 hp=1";
    let mut b = pos(start);
    let t = act_traced(&mut b, A::Step(19));
    assert!(t[0].contains("takes the Hidden Tunnels"), "{t:?}");
    let mut b = pos(start);
    let t = act_traced(&mut b, A::Step(18));
    assert!(t[0].starts_with("the hero moves"), "{t:?}");
}

#[test]
fn the_boss_leaving_the_village_center_has_no_sideways_step_to_prefer() {
    // The boss rises in the Village Center (section 13) and moves toward the hero. To Coal
    // Shed 8 the two northern corners are equally short, and neither step from the centre's
    // middle is more sideways than up (the centre sits at (4,4) on the card grid, the corners
    // at (3,3) and (5,3)): the player chooses (Enemies Move).
    let mut b = pos(
        "wave number=4\nvillagers ready=0 supply=0\nhero at=8\nboss up=1 at=0\nflow phase=enemy stage=boss_move",
    );
    b.run_enemies(
        &mut stream_rng(1, 0, Stream::Chance),
        &mut VecTrace::default(),
    );
    assert_eq!(b.phase, Phase::Tie, "{b}");
    assert_eq!(legal(&b), vec![A::Pick(1), A::Pick(2)]);
}
