//! Details of Buried Beneath's rules that the rulebook's cases (`tests/buried_cases.rs`) leave
//! open, each found by mutation testing (`scripts/mutants.sh`, issue 12;
//! `results/mutants/buried.md` lists which mutant each test kills). Positions use the builtin
//! content with the default map of `tests/buried_cases.rs` (Taproom 11 is next to Mill Pond 5
//! and Cellar 12).

mod common;

use common::legal;

use sololab::games::buried::actions::BuriedAction as A;
use sololab::games::buried::state::{Buried, GONE, MAX_TURNS, NONE, Phase, SLOTS, Stage, cause};
use sololab::{Game, Outcome, Stream, VecTrace, stream_rng};

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

/// Runs the enemies' turn from a position whose `flow` is inside it; returns the trace.
fn run(b: &mut Buried) -> Vec<String> {
    let mut t = VecTrace::default();
    b.run_enemies(&mut stream_rng(1, 0, Stream::Chance), &mut t);
    t.0
}

#[test]
fn a_monster_cut_off_from_the_village_center_by_other_monsters_stays() {
    // Enemies Move: the shortest unblocked path, not counting through blocked locations (other
    // monsters). The Banshee at Mill Pond 5 has Waterwheel 6 open, but every way on from
    // there runs through Taproom 11 or Anvil 7, where dice that already moved stand: it has
    // no path and stays (`flow done` marks dice 2 and 3, bits 1 and 2, as moved).
    let mut b = pos(
        "villagers ready=0\nflow phase=enemy stage=move done=6\ndie 1 at=5 hp=2\ndie 2 at=11 hp=2\ndie 3 at=7 hp=2",
    );
    run(&mut b);
    assert_eq!(b.die_at[..3], [5, 11, 7], "{b}");
    assert_ne!(b.stage, Stage::Move, "the move stage is over");
}

#[test]
fn monsters_of_one_type_move_nearest_the_village_center_first() {
    // Enemies Move: within a type, the monster nearest the Village Center moves first. The
    // Goblins (speed 1): die 8 on Taproom 11 (2 from the centre) steps to Town Hall 1 and
    // frees Taproom for die 7 on Mill Pond 5 (3 away). Die 7 first would find Taproom
    // blocked and take the long way, to Waterwheel 6.
    let mut b =
        pos("villagers ready=0\nflow phase=enemy stage=move\ndie 7 at=5 hp=1\ndie 8 at=11 hp=1");
    run(&mut b);
    assert_eq!((b.die_at[6], b.die_at[7]), (11, 1), "{b}");
}

#[test]
fn the_type_nearest_the_village_center_attacks_first() {
    // Enemies Attack: one type at a time, in the order they moved (`flow first=1`: the second
    // camp, the Goblins, is nearer). The Goblin (sword) on the hero's Taproom 11 attacks before
    // the Banshee (bow) beside it on Mill Pond 5.
    let mut b = pos(
        "villagers ready=0\nflow phase=enemy stage=attack first=1\nhero at=11 stats=5,3,2,2\ndie 1 at=5 hp=2\ndie 7 at=11 hp=1",
    );
    let t = run(&mut b);
    let at = |s: &str| t.iter().position(|l| l.starts_with(s));
    let goblin = at("Goblin at Taproom attacks the hero").expect("the Goblin attacks");
    let banshee = at("Banshee at Mill Pond attacks the hero").expect("the Banshee attacks");
    assert!(goblin < banshee, "{t:?}");
    assert_eq!(b.stats[0], 5 - 2, "one point from each");
}

#[test]
fn a_camp_deploys_once_when_its_deployment_asks_a_decision() {
    // Deploy (section 6): one die per camp, then the camp card moves one spot clockwise. Wave
    // 3's second camp, the Wolf, drives off the villager where it deploys: with several free
    // locations around, the player picks one (Phase::Push). The turn then goes on without
    // deploying the Wolf a second time.
    let base = "wave number=3 on_card=0,2\ndie 7 at=card hp=1\ndie 8 at=card hp=1\nvillagers ready=0 supply=0\nflow phase=enemy stage=deploy";
    let e = pos(base).entry(1);
    let slot = pos(base).camp_slot[1];
    let mut b = pos(&format!("{base}\nvillagers placed={e} ready=0 supply=0"));
    run(&mut b);
    assert_eq!(b.phase, Phase::Push, "{b}");
    let to = match legal(&b)[0] {
        A::Pick(l) => l,
        other => panic!("expected a destination, got {other:?}"),
    };
    act(&mut b, A::Pick(to));
    assert_eq!(b.on_card[1], 1, "one Wolf deployed: {b}");
    assert_eq!(
        b.camp_slot[1],
        (slot + 1) % SLOTS,
        "the camp moved one spot"
    );
}

#[test]
fn the_boss_attacks_once_and_then_the_players_turn_begins() {
    // Boss Overview: the boss attacks as a monster would, once, after its move; then the
    // player's turn. The Monstrosity (sword, damage 2) on the hero's Taproom 11.
    let mut b = pos(
        "wave number=4\nvillagers ready=0 supply=0\nhero at=11 stats=4,3,2,2\nboss name=The_Monstrosity up=1 at=11\nflow phase=enemy stage=boss_attack",
    );
    run(&mut b);
    assert_eq!(b.stats[0], 4 - 2, "{b}");
    assert_eq!(b.phase, Phase::Place, "the player's turn: {b}");
    // The Devourer (bow) hunts villagers: two beside it, the player picks the one hit; the
    // boss does not attack again when the turn goes on.
    let mut b = pos(
        "wave number=4\nvillagers placed=8,11 ready=0 supply=0\nhero at=0\nboss name=The_Devourer up=1 at=1\nflow phase=enemy stage=boss_attack",
    );
    run(&mut b);
    assert_eq!(b.phase, Phase::Victim, "{b}");
    assert_eq!(legal(&b), vec![A::Pick(8), A::Pick(11)]);
    act(&mut b, A::Pick(8));
    assert_eq!(b.tally.fled, 1, "one villager hit: {b}");
    assert_eq!(b.phase, Phase::Place);
}

/// The positions `lines` (each a position's lines after its header) read with a content file:
/// the builtin content with its first `old` replaced by `new`, written to a fresh temporary
/// folder removed afterwards.
///
/// # Panics
/// When the builtin content has no `old`, or a file or position fails.
fn with_edited_content<const N: usize>(old: &str, new: &str, lines: [&str; N]) -> [Buried; N] {
    let text = std::fs::read_to_string("src/games/buried/content/buried.toml").unwrap();
    assert!(text.contains(old), "{old}");
    let dir = std::env::temp_dir().join(format!(
        "sololab-buried-content-{}-{}",
        std::process::id(),
        text.find(old).unwrap()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("edited.toml");
    std::fs::write(&file, text.replacen(old, new, 1)).unwrap();
    let states = lines.map(|l| {
        common::parse(&format!(
            "buried-position 1\ncontent {}\n{l}\n",
            file.display()
        ))
    });
    std::fs::remove_dir_all(&dir).unwrap();
    states
}

#[test]
fn a_boss_without_a_villager_gain_says_nothing_of_health_when_it_hits_one() {
    // Boss Overview: a boss gains its card's health for a villager it defeats; a content file
    // may give a boss none (`villager_gain = 0`), and then the trace has no gain line.
    let attack = "wave number=4\nvillagers placed=8,15 ready=0 supply=0\nhero at=0\nboss name=The_Devourer up=1 at=1 stats=3,3,1,2\nflow phase=enemy stage=boss_attack";
    let [mut b] = with_edited_content("villager_gain = 1", "villager_gain = 0", [attack]);
    let t = run(&mut b);
    assert!(
        t.iter().any(|l| l.contains("attacks the villager")),
        "{t:?}"
    );
    assert!(!t.iter().any(|l| l.contains("gains")), "{t:?}");
    assert_eq!(b.boss_stats[0], 3);
    // The builtin Devourer gains 1.
    let mut b = pos(attack);
    let t = run(&mut b);
    assert!(t.iter().any(|l| l.contains("gains 1 health")), "{t:?}");
    assert_eq!(b.boss_stats[0], 4);
}

#[test]
fn a_cleared_wave_with_an_empty_supply_adds_no_villager() {
    // End of Wave: one villager joins from the supply, if one is left there.
    let mut b = pos("hero at=11 stats=2,1,1,1\nvillagers placed=5,6,12 fled=2 ready=0 supply=0");
    act(&mut b, A::EndTurn);
    assert_eq!(b.wave, 2);
    assert_eq!((b.ready, b.fled, b.supply), (5, 0, 0), "{b}");
}

/// The default map with five skull locations showing (Forge, Market, Farm and Old Mine
/// flipped: Slag Heap, Gallows, Scarecrow and Collapsed Tunnel, with the Chapel's Graveyard).
const FIVE_SKULLS: &str = "map flipped=0,1,0,0,0,1,1,0,1";

#[test]
fn the_monstrosity_is_defeated_when_no_boss_marker_is_left() {
    // The Monstrosity's card: at 0 health it covers a skull with a Boss marker and rises; with
    // none left to cover it is defeated. There are 4 Boss markers (Components; CONTENT.md,
    // "The Monstrosity"): with all 4 on skulls it is defeated though a fifth skull is free.
    let fight = "wave number=4\nvillagers placed=2 ready=0 supply=0\nhero at=0 stats=4,3,2,2\nboss name=The_Monstrosity up=1 at=1 stats=1,2,2,3\nflow phase=symbol sym=2,0";
    let b = pos(&format!("{FIVE_SKULLS}\n{fight}"));
    assert_eq!(b.skulls.count_ones(), 5, "{b}");
    let four: Vec<u8> = sololab::games::buried::state::locs(b.skulls)
        .take(4)
        .collect();
    let four = four
        .iter()
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(",");
    // Three markers down: the fourth covers a skull and it rises, counted in the tally.
    let three = four.rsplit_once(',').unwrap().0;
    let mut b = pos(&format!("{FIVE_SKULLS}\n{fight}\nmarkers at={three}"));
    act(&mut b, A::Attack(1)); // Smithy Yard's damage symbol: the hero's attack
    assert_eq!(b.outcome(), None, "{b}");
    assert_eq!(b.markers.count_ones(), 4);
    assert_eq!(b.tally.markers, 1);
    // All four down: defeated.
    let mut b = pos(&format!("{FIVE_SKULLS}\n{fight}\nmarkers at={four}"));
    act(&mut b, A::Attack(1));
    assert_eq!(b.outcome(), Some(Outcome::Won), "{b}");
}

#[test]
fn the_boss_still_to_go_counts_the_monstrositys_falls_to_come() {
    // Buried::boss_to_go (the features boss_to_go and boss_falls): health now plus the card's
    // Health (4) per fall to come, a fall per open skull while a Boss marker is left.
    let fight = "wave number=4\nvillagers placed=2 ready=0 supply=0\nhero at=0 stats=4,3,2,2\nboss name=The_Monstrosity up=1 at=1 stats=1,2,2,3\nflow phase=symbol sym=2,0";
    let b = pos(&format!("{FIVE_SKULLS}\n{fight}"));
    // Five open skulls, four markers: four falls.
    assert_eq!(b.boss_to_go(), (1 + 4 * 4, 4), "{b}");
    // The default map shows fewer skulls than there are markers: a fall per skull.
    let few = pos(fight);
    let n = few.skulls.count_ones();
    assert!((1..4).contains(&n), "{few}");
    assert_eq!(few.boss_to_go(), (1 + 4 * n, n), "{few}");
    let skulls: Vec<String> = sololab::games::buried::state::locs(b.skulls)
        .map(|l| l.to_string())
        .collect();
    // Three markers down: two open skulls, one marker left: one fall.
    let mut b = pos(&format!(
        "{FIVE_SKULLS}\n{fight}\nmarkers at={}",
        skulls[..3].join(",")
    ));
    assert_eq!(b.boss_to_go(), (1 + 4, 1), "{b}");
    let names = <Buried as Game>::FEATURE_NAMES;
    let mut f = vec![0.0; names.len()];
    b.features(&mut f);
    let at = |n: &str| names.iter().position(|&x| x == n).unwrap();
    assert_eq!((f[at("boss_to_go")], f[at("boss_falls")]), (5.0, 1.0));
    // The last fall: health back to 4 plus what the skull adds; no fall left.
    act(&mut b, A::Attack(1));
    assert_eq!(b.outcome(), None, "{b}");
    assert!(b.boss_stats[0] >= 4, "{b}");
    assert_eq!(b.boss_to_go(), (u32::from(b.boss_stats[0]), 0), "{b}");
    // Before the boss is up: the count at its entrance (every skull open, no marker).
    let b = pos(&format!(
        "{FIVE_SKULLS}\nwave number=4\nmarkers at={}",
        skulls[0]
    ));
    assert_eq!(b.boss_to_go(), (4 + 4 * 4, 4), "{b}");
    // The Devourer: its health, no falls (its card's Health before it is up).
    let b = pos(&format!(
        "{FIVE_SKULLS}\n{}",
        fight.replace(
            "The_Monstrosity up=1 at=1 stats=1",
            "The_Devourer up=1 at=1 stats=3"
        )
    ));
    assert_eq!(b.boss_to_go(), (3, 0), "{b}");
}

#[test]
fn the_labs_turn_limit_is_a_loss_no_wave_retry_undoes() {
    // `wave_retries` restarts a lost wave; the lab's turn limit (state::MAX_TURNS) ends the
    // game for good.
    let mut b = pos(&format!(
        "villagers placed=5,6 ready=0\ndie 8 at=20 hp=1\nflow turn={MAX_TURNS} retries=2,0"
    ));
    act(&mut b, A::EndTurn);
    assert_eq!(b.outcome(), Some(Outcome::Lost(cause::TURN_LIMIT)), "{b}");
    assert_eq!(b.retries_used, 0);
    // The ended game, one turn past the limit, is a position that reads back.
    assert_eq!(b.turn, MAX_TURNS + 1, "{b}");
    assert_eq!(Buried::from_position(&b.to_position()), Ok(b), "{b}");
    // Turn MAX_TURNS itself is still played.
    let mut b = pos(&format!(
        "villagers placed=5,6 ready=0\ndie 8 at=20 hp=1\nflow turn={}",
        MAX_TURNS - 1
    ));
    act(&mut b, A::EndTurn);
    assert_eq!((b.outcome(), b.turn), (None, MAX_TURNS), "{b}");
}

#[test]
fn a_village_cards_two_locations_are_joined_by_its_path() {
    // Setup (section 2): paths as printed on the cards, within a card too (the Mill's front
    // joins Mill Pond 5 and Waterwheel 6), and no location is its own neighbour.
    let b = pos("villagers ready=0");
    assert_ne!(b.adj[5] & (1 << 6), 0);
    assert_ne!(b.adj[6] & (1 << 5), 0);
    for l in 0..21 {
        assert_eq!(b.adj[l] & (1 << l), 0, "location {l}");
    }
}

#[test]
fn a_camp_meets_the_edge_half_on_its_paths_side() {
    // CONTENT.md, "Camp spots": seen from the camp facing the village. The Banshee's path is
    // on its left. At spot 0 (above the top-left card, the Mill) its left is the north edge's
    // east half, Waterwheel 6; at spot 6 (below the bottom-right card, here the Mill again,
    // Mill Pond 19 and Waterwheel 20) its left is the south edge's west half, Mill Pond.
    let b = pos("wave slots=0,3");
    assert_eq!(b.entry(0), 6);
    let b =
        pos("map grid=Old_Mine,Forge,Chapel,Tavern,*,Market,Farm,Well_House,Mill\nwave slots=6,3");
    assert_eq!(b.entry(0), 19);
}

#[test]
fn the_village_centers_shown_side_marks_its_skull_corners() {
    // A content file whose Village Center back has a skull on Storehouse (the south-west
    // corner, 3): it is a skull location when the back shows, not when the front does.
    let [back, front] = with_edited_content(
        r#"{ name = "Storehouse", at = "sw", symbols = ["health"] }"#,
        r#"{ name = "Storehouse", at = "sw", symbols = ["skull", "health"] }"#,
        [
            "map flipped=0,0,0,0,1,0,0,0,0",
            "map flipped=0,0,0,0,0,0,0,0,0",
        ],
    );
    assert_ne!(back.skulls & (1 << 3), 0);
    assert_eq!(front.skulls & (1 << 3), 0);
}

#[test]
fn each_boss_heads_for_its_own_target() {
    // Boss Overview: the boss moves toward where it can attack its target, the hero "unless
    // their card says otherwise". The Devourer (bow, speed 3) hunts villagers: from the
    // Village Center toward the villager on Ore Cart 20 it stops beside it, on Wash House 18,
    // though the hero stands on Mill Pond 5.
    let boss_move = "wave number=4\nhero at=5\nflow phase=enemy stage=boss_move";
    let mut b = pos(&format!(
        "{boss_move}\nvillagers placed=15,20 ready=0 supply=0\nboss name=The_Devourer up=1 at=0"
    ));
    run(&mut b);
    assert_eq!(b.boss_at, 18, "{b}");
    // With no villager placed it hunts the hero: toward Mill Pond, Town Hall and Stables
    // equally short, the player's choice (the same for The Monstrosity below).
    let mut b = pos(&format!(
        "{boss_move}\nvillagers ready=0 supply=0 fled=2\nboss name=The_Devourer up=1 at=0"
    ));
    run(&mut b);
    assert_eq!(b.phase, Phase::Tie, "{b}");
    assert_eq!(legal(&b), vec![A::Pick(1), A::Pick(3)]);
    // The Monstrosity (sword) hunts the hero, villagers placed or not.
    let mut b = pos(&format!(
        "{boss_move}\nvillagers placed=15,20 ready=0 supply=0\nboss name=The_Monstrosity up=1 at=0"
    ));
    run(&mut b);
    assert_eq!(b.phase, Phase::Tie, "{b}");
    assert_eq!(legal(&b), vec![A::Pick(1), A::Pick(3)]);
}

#[test]
fn a_bow_boss_beside_two_villagers_stays_and_attacks() {
    // The Devourer on Waterwheel 6 is beside both villagers, on Mill Pond 5 and Anvil 7 (both
    // next to it): it is already where it can attack, so it does not move, and the player picks
    // the villager hit.
    let mut b = pos(
        "wave number=4\nhero at=20\nvillagers placed=5,7 ready=0 supply=0\nboss name=The_Devourer up=1 at=6\nflow phase=enemy stage=boss_move",
    );
    run(&mut b);
    assert_eq!(b.boss_at, 6, "{b}");
    assert_eq!(b.phase, Phase::Victim);
    assert_eq!(legal(&b), vec![A::Pick(5), A::Pick(7)]);
}

#[test]
fn a_ready_villager_who_flees_is_counted() {
    // A monster reaching the Village Center: the player may send away a ready villager (beside
    // the hero card); it counts as fled, in the wave and in the game's tally.
    let mut b =
        pos("villagers placed=15 ready=1\nflow placements=12\ndie 7 at=1 hp=1\ndie 8 at=20 hp=1");
    act(&mut b, A::EndTurn);
    act(&mut b, A::Pick(sololab::games::buried::actions::READY));
    assert_eq!((b.ready, b.fled, b.tally.fled), (0, 1, 1), "{b}");
}

#[test]
fn a_restarted_wave_counts_only_the_waves_cleared_before_it() {
    // `wave_retries`: wave 2 lost and restarted; one wave cleared (the tally's `waves`).
    let mut b = pos(
        "wave number=2\nvillagers ready=0\nmarkers at=1,2,3,4\nstart markers=1,2,3\ndie 7 at=1 hp=1\nflow retries=1,0\ntally waves=1",
    );
    act(&mut b, A::EndTurn);
    assert_eq!((b.retries_used, b.wave), (1, 2), "{b}");
    assert_eq!(b.tally.waves, 1);
}

#[test]
fn waves_1_and_3_draw_the_first_cards_side_at_random() {
    // Wave Setup: wave 1 draws a pair, its first card's side at random; wave 2 flips it; wave
    // 3 draws the other pair, again with a random side for its first card, leaving wave 1's.
    let mut wave1 = [0; 2];
    let mut wave3 = [0; 2];
    for seed in 0..40u64 {
        let mut b = pos("wave number=2\nvillagers ready=0");
        let before = b.first_side[0];
        b.die_at = [GONE; 12]; // wave 2 cleared
        b.on_card = [0, 0];
        common::act(&mut b, A::EndTurn, &mut stream_rng(seed, 0, Stream::Chance));
        assert_eq!(b.wave, 3, "{b}");
        assert_eq!(b.first_side[0], before, "wave 1's side stays");
        wave3[b.first_side[1] as usize] += 1;
        let setup = sololab::games::buried::BuriedSetup::resolve(&Default::default()).unwrap();
        let g = Buried::new_game(&setup, &mut stream_rng(seed, 0, Stream::Setup));
        wave1[g.first_side[0] as usize] += 1;
    }
    assert!(wave1[0] > 5 && wave1[1] > 5, "{wave1:?}");
    assert!(wave3[0] > 5 && wave3[1] > 5, "{wave3:?}");
}

#[test]
fn a_monster_the_hero_defeats_is_counted() {
    // The `monsters_killed` metric: the Mage (bow, damage 2) at the centre shoots the Banshee
    // beside it on Town Hall 1 with Smithy Yard's damage symbol.
    let mut b = pos(
        "villagers placed=2 ready=0\nflow phase=symbol sym=2,0\ndie 1 at=1 hp=1\ndie 8 at=20 hp=1",
    );
    act(&mut b, A::Attack(1));
    assert_eq!(b.die_at[0], GONE, "{b}");
    assert_eq!(b.tally.killed, 1);
}

#[test]
fn on_a_tie_for_nearest_type_the_first_drawn_camp_moves_first() {
    // Enemies Move: the type nearest the Village Center first; both 3 away here, so the first
    // camp's (CONTENT.md, "Closest type"). The Banshee (speed 2) from Mill Pond 5 passes
    // Taproom 11 to Town Hall 1 before the Goblin on Cellar 12 steps onto Taproom; the other
    // way round Taproom would be taken and the Banshee would go the long way.
    let mut b = pos("villagers ready=0\ndie 1 at=5 hp=2\ndie 7 at=12 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!((b.die_at[0], b.die_at[6]), (1, 11), "{b}");
}

#[test]
fn a_banshee_at_full_die_heals_no_further() {
    // The Banshee's card: entering a skull location it gains 1 health, up to the die's 6.
    // Deployed from spot 3 to Graveyard 10 (a skull): at 5 it heals to 6, at 6 it stays.
    for (hp, after) in [(5, 6), (6, 6)] {
        let mut b = pos(&format!(
            "villagers ready=0\nwave slots=3,9 on_card=1,0\ndie 1 at=card hp={hp}\nflow phase=enemy stage=deploy"
        ));
        assert_eq!(b.entry(0), 10);
        run(&mut b);
        assert_eq!((b.die_at[0], b.die_hp[0]), (10, after), "{b}");
    }
}

/// Wave 3's Wolf (the second camp) deploying onto a villager's location with the villagers on
/// `placed`: the state after the enemies' turn (the player's turn has begun, the villagers
/// back beside the hero card unless one fled) and its trace.
fn wolf_deploys_onto_a_villager(placed: u32) -> (Buried, Vec<String>) {
    let list: Vec<String> = (0..21)
        .filter(|l| placed & (1 << l) != 0)
        .map(|l| l.to_string())
        .collect();
    let mut b = pos(&format!(
        "wave number=3 on_card=0,1\nvillagers placed={} ready=0 supply=0\ndie 7 at=card hp=1\nflow phase=enemy stage=deploy",
        list.join(",")
    ));
    let t = run(&mut b);
    (b, t)
}

#[test]
fn a_villager_the_wolf_drives_off_with_nowhere_to_go_flees_and_with_one_place_goes_there() {
    // The Wolf's card (Moving Villagers): the villager where it enters is moved by the player
    // to a free adjacent location; with none it flees, with one it goes there without a
    // question.
    let e = pos("wave number=3").entry(1);
    let around = pos("wave number=3").adj[e as usize] & !1;
    let n = around.count_ones() as u8;
    assert!((1..=4).contains(&n), "{around:b}");
    // Every neighbour taken by a villager: nowhere to go.
    let (b, t) = wolf_deploys_onto_a_villager(1 << e | around);
    assert_eq!(b.die_at[6], e, "{b}");
    assert!(t.iter().any(|l| l.contains("nowhere to go")), "{t:?}");
    assert_eq!((b.tally.fled, b.ready), (1, n), "{b}");
    assert_eq!(b.phase, Phase::Place, "no question asked");
    // One neighbour left free: the villager goes there.
    let free = around.trailing_zeros() as u8;
    let (b, t) = wolf_deploys_onto_a_villager(1 << e | (around & !(1 << free)));
    let to = format!("is driven to {}", b.loc_name(free));
    assert!(t.iter().any(|l| l.contains(&to)), "{to}: {t:?}");
    assert_eq!((b.tally.fled, b.ready), (0, n), "{b}");
    assert_eq!(b.phase, Phase::Place, "no question asked");
}

#[test]
fn a_monster_reaching_the_center_with_all_four_markers_in_use_loses() {
    // Reaching the Village Center: "all 4 Boss markers are already being used to cover
    // locations" loses at once, wherever they lie (here one on Graveyard 10, a corner free).
    let mut b = pos("villagers ready=0\nmarkers at=1,2,3,10\ndie 7 at=1 hp=1\ndie 8 at=20 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(
        b.outcome(),
        Some(Outcome::Lost(cause::VILLAGE_OVERRUN)),
        "{b}"
    );
}

#[test]
fn a_monster_reaching_the_center_with_no_villager_to_flee_still_leaves_a_marker() {
    // Reaching the Village Center: a villager flees if there is one; the Boss marker covers a
    // corner either way (a position with no villager left, which play never reaches: the last
    // one fleeing loses first).
    let mut b = pos("villagers ready=0\ndie 7 at=1 hp=1\ndie 8 at=20 hp=1");
    act(&mut b, A::EndTurn);
    assert_eq!(b.phase, Phase::Corner, "{b}");
    assert_eq!(b.tally.fled, 0);
}

#[test]
fn a_camp_deploys_its_next_die_from_the_card() {
    // Deploy: the die put on the map is one still on the camp card, not one already out.
    let mut b = pos(
        "villagers ready=0\nwave on_card=1,0\ndie 1 at=5 hp=2\ndie 2 at=card hp=2\nflow phase=enemy stage=deploy",
    );
    let e = b.entry(0);
    run(&mut b);
    assert_eq!((b.die_at[0], b.die_at[1]), (5, e), "{b}");
}

#[test]
fn placements_are_counted_toward_the_labs_cap() {
    // The lab's cap on placements a turn (state::PLACEMENT_CAP, which ends endless Rally
    // loops): each placement counts.
    let mut b = pos("villagers ready=2\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(3)); // Stables: +S
    assert_eq!(b.placements, 1);
    let mut b = pos(&format!(
        "villagers ready=2\ndie 8 at=20 hp=1\nflow placements={}",
        sololab::games::buried::state::PLACEMENT_CAP - 1
    ));
    act(&mut b, A::Place(3));
    while !legal(&b).contains(&A::EndTurn) {
        let first = legal(&b)[0];
        act(&mut b, first);
    }
    assert!(
        !legal(&b).iter().any(|a| matches!(a, A::Place(_))),
        "no placement past the cap: {:?}",
        legal(&b)
    );
}

/// `rule_placement_cap` (CONTENT.md, "Placement cap"): the cap a setup chooses goes into the
/// state, the position text (`cap=N`, written only when it is not the default 12) and the legal
/// placements; out-of-range caps are refused by the setup and by the position reader.
#[test]
fn the_placement_cap_is_the_setups_rule_switch() {
    use sololab::games::buried::state::{MAX_PLACEMENT_CAP, MIN_PLACEMENT_CAP, PLACEMENT_CAP};
    use sololab::{AxisValue, SetupValues};
    let setup = |v: Option<i64>| {
        let mut values = SetupValues::new();
        if let Some(v) = v {
            values.insert("rule_placement_cap".into(), AxisValue::Int(v));
        }
        Buried::resolve_setup(&values)
    };
    assert_eq!(setup(None).unwrap().placement_cap, PLACEMENT_CAP);
    for cap in [MIN_PLACEMENT_CAP, 7, MAX_PLACEMENT_CAP] {
        let s = setup(Some(cap as i64)).unwrap();
        let b = Buried::new_game(&s, &mut stream_rng(1, 0, Stream::Setup));
        assert_eq!(b.placement_cap, cap);
        let text = b.to_position();
        assert!(text.contains(&format!(" cap={cap}\n")), "{text}");
        assert_eq!(Buried::from_position(&text).unwrap(), b);
    }
    let b = Buried::new_game(&setup(None).unwrap(), &mut stream_rng(1, 0, Stream::Setup));
    assert!(!b.to_position().contains(" cap="));
    for bad in [4, 41] {
        let e = setup(Some(bad)).unwrap_err().to_string();
        assert_eq!(
            e,
            format!("axis 'rule_placement_cap': {bad} is not in 5..=40")
        );
    }

    // A cap of 5: the fifth placement is the last one offered.
    let mut b = pos("villagers ready=2\ndie 8 at=20 hp=1\nflow placements=3 cap=5");
    assert_eq!(b.placement_cap, 5);
    act(&mut b, A::Place(3)); // Stables: +S
    while !legal(&b)
        .iter()
        .any(|a| matches!(a, A::Place(_) | A::EndTurn))
    {
        let first = legal(&b)[0];
        act(&mut b, first);
    }
    assert!(legal(&b).contains(&A::Place(4)), "{:?}", legal(&b));
    act(&mut b, A::Place(4));
    while !legal(&b).contains(&A::EndTurn) {
        let first = legal(&b)[0];
        act(&mut b, first);
    }
    assert_eq!(b.placements, 5);
    assert!(
        !legal(&b).iter().any(|a| matches!(a, A::Place(_))),
        "{:?}",
        legal(&b)
    );

    // The reader: a cap below 5, and placements past the cap.
    for (flow, want) in [
        ("flow cap=4", "cap=4 is below 5"),
        ("flow placements=6 cap=5", "placements=6 is past the cap 5"),
        ("flow placements=13", "placements=13 is past the cap 12"),
    ] {
        let e = Buried::from_position(&format!("buried-position 1\n{flow}\n")).unwrap_err();
        assert!(e.to_string().contains(want), "{flow}: {e}");
    }
}

#[test]
fn any_die_of_the_first_camp_attacks_as_that_camp() {
    // Enemies Attack: dice 1-6 belong to the first camp (here the Banshee, bow), dice 7-12 to
    // the second (the Goblin, sword); die 2 on Taproom 11 shoots the hero beside it on Mill
    // Pond 5 as the Banshee.
    let mut b = pos(
        "villagers ready=0\nflow phase=enemy stage=attack\nhero at=5 stats=5,3,2,2\ndie 2 at=11 hp=2",
    );
    let t = run(&mut b);
    assert!(
        t.iter().any(|l| l == "Banshee at Taproom attacks the hero"),
        "{t:?}"
    );
    assert_eq!(b.stats[0], 4);
}

#[test]
fn the_hidden_tunnels_join_their_two_locations_both_ways_and_no_other() {
    // Hidden Tunnels (section 9): Old Well 17 and Mine Shaft 19 are one step apart either way;
    // from any other location the steps are its paths only (Waterwheel 6: 5, 7, 11).
    let at = |l: u8| {
        pos(&format!(
            "hero at={l} move=1\nvillagers ready=0\ndie 8 at=5 hp=1"
        ))
    };
    assert!(legal(&at(17)).contains(&A::Step(19)));
    assert!(legal(&at(19)).contains(&A::Step(17)));
    let steps: Vec<A> = legal(&at(6))
        .into_iter()
        .filter(|a| matches!(a, A::Step(_)))
        .collect();
    assert_eq!(steps, vec![A::Step(5), A::Step(7), A::Step(11)]);
}

/// Whether skill `k` is offered at the Mana symbol of a villager placed on `at` (Shrine 4: +M;
/// Graveyard 10: a skull, +M +M) in `lines`.
fn skill_offered(lines: &str, at: u8, k: u8) -> bool {
    let mut b = pos(&format!("{lines}\nvillagers ready=1"));
    act(&mut b, A::Place(at));
    legal(&b).contains(&A::Skill(k))
}

#[test]
fn a_skill_is_offered_only_when_it_has_something_to_act_on() {
    // The hero may use a skill only when it can do something (CONTENT.md, "Skills"). Gale
    // Winds (the Mage's first) needs a monster or a villager it can move: with the monsters
    // still on their cards and Boss markers on both other neighbours of Shrine 4 (13 and
    // 18), the villager just placed there cannot be blown anywhere.
    let mage_nothing = "markers at=13,18\nwave on_card=1,1\ndie 1 at=card hp=2\ndie 7 at=card hp=1";
    assert!(!skill_offered(mage_nothing, 4, 0));
    assert!(skill_offered("die 8 at=20 hp=1", 4, 0));
    // Rallying Horn (the Hunter's third) needs a placed villager to collect, not on a skull
    // (the one on Graveyard is not).
    assert!(!skill_offered("hero name=Hunter\ndie 8 at=20 hp=1", 10, 2));
    assert!(skill_offered(
        "hero name=Hunter\nvillagers placed=5\ndie 8 at=20 hp=1",
        10,
        2
    ));
    // Call Home (the Archmage's third) needs a villager who fled.
    assert!(!skill_offered("hero name=Archmage\ndie 8 at=20 hp=1", 4, 2));
    assert!(skill_offered(
        "hero name=Archmage\nvillagers fled=1\ndie 8 at=20 hp=1",
        4,
        2
    ));
}

#[test]
fn cleave_is_offered_only_with_an_enemy_on_the_knights_location() {
    // Cleave (the Knight's first skill): damage to every enemy on the hero's location, a
    // monster or the boss; with none there it has nothing to act on.
    assert!(skill_offered(
        "hero name=Knight at=11\ndie 8 at=11 hp=1",
        4,
        0
    ));
    assert!(!skill_offered(
        "hero name=Knight at=11\ndie 8 at=20 hp=1",
        4,
        0
    ));
    assert!(skill_offered(
        "wave number=4\nvillagers supply=0\nhero name=Knight at=11\nboss name=The_Monstrosity up=1 at=11",
        4,
        0
    ));
}

#[test]
fn gale_winds_blows_the_boss_along_its_paths_and_call_home_brings_a_villager_back() {
    // Gale Winds on the boss (up on Town Hall 1): it is the only thing to pick besides the
    // villager just placed, and it goes along an enemy path, never into the Village Center.
    let mut b =
        pos("wave number=4\nvillagers ready=1 supply=0\nboss name=The_Monstrosity up=1 at=1");
    act(&mut b, A::Place(4)); // Shrine: +M
    act(&mut b, A::Skill(0));
    assert_eq!(
        legal(&b),
        vec![
            A::Pick(1),
            A::Pick(4 | sololab::games::buried::actions::VILLAGER)
        ]
    );
    act(&mut b, A::Pick(1));
    assert_eq!(legal(&b), vec![A::Pick(8), A::Pick(11)]);
    act(&mut b, A::Pick(11));
    assert_eq!(b.boss_at, 11, "{b}");
    // Call Home (the Archmage's third): a fled villager returns, ready.
    let mut b = pos("hero name=Archmage\nvillagers ready=1 fled=1\ndie 8 at=20 hp=1");
    act(&mut b, A::Place(4));
    act(&mut b, A::Skill(2));
    assert_eq!((b.fled, b.ready), (0, 1), "{b}");
}

#[test]
fn engage_is_computed_only_when_a_score_weighs_it() {
    // `engage` (feature 14) is the one costly feature no shipped strategy weighs: a score that
    // does not need it gets 0 in its slot, every other feature as `features` writes it.
    let engage = Buried::FEATURE_NAMES
        .iter()
        .position(|&n| n == "engage")
        .expect("feature engage");
    assert_eq!(engage, 14);
    let setup = Buried::resolve_setup(&sololab::SetupValues::new()).expect("default setup");
    let mut checked = 0;
    for seed in 0..40 {
        let mut rng = stream_rng(seed, 0, Stream::Chance);
        let mut b = Buried::new_game(&setup, &mut stream_rng(seed, 0, Stream::Setup));
        let mut acts = Vec::new();
        while b.outcome().is_none() {
            if b.engage() > 0 {
                let n = Buried::FEATURE_NAMES.len();
                let (mut all, mut some) = (vec![0.0; n], vec![0.0; n]);
                b.features(&mut all);
                b.features_needed(!(1 << engage), &mut some);
                assert_eq!(all[engage], b.engage() as f64);
                assert_eq!(some[engage], 0.0);
                for i in (0..n).filter(|&i| i != engage) {
                    assert_eq!(some[i].to_bits(), all[i].to_bits(), "feature {i}");
                }
                checked += 1;
            }
            b.legal_actions(&mut acts);
            let a = acts[(b.turn as usize * 7 + acts.len()) % acts.len()];
            b.apply(a, &mut rng);
        }
    }
    assert!(checked > 0, "no position with an enemy in the hero's reach");
}

#[test]
fn a_flow_the_state_cannot_go_on_from_is_refused_at_its_line() {
    // Positions the reader took but `play` panicked on: what the phase waits for must exist.
    // Each text follows the header (line 1); the flow (or wave) line is line 2.
    for (text, want) in [
        (
            "flow phase=victim",
            "phase=victim waits on an attacker: a die on the map (mover 0-11) with stage=attack, or the boss (mover=12) with stage=boss_attack (got stage=done mover=-)",
        ),
        (
            "flow phase=target arg=25,13,17",
            "phase=target: arg's first number is the skill being used, 0-2 (got 25)",
        ),
        (
            "flow phase=symbol sym=19,11",
            "phase=symbol sym=19,11: location 19 shows 1 stat symbol (sym=LOC,INDEX counts them from 0)",
        ),
        (
            "flow phase=push arg=28,20,2",
            "phase=push: arg's first number is the location of the villager being driven, and 28 holds none",
        ),
        // The Mage's skills: Gale Winds (two steps), Force Wall (one), Chain Lightning (two).
        (
            "flow phase=target arg=1,1,-",
            "phase=target: arg's second number is the step of Force Wall, 0 (got 1)",
        ),
        (
            "flow phase=target arg=0,1,70",
            "phase=target: arg's third number is the first choice of Gale Winds, a location 0-20 (plus 32 for the villager there) (got 70)",
        ),
        (
            "flow phase=target arg=2,1,-",
            "phase=target: arg's third number is the first choice of Chain Lightning, a location 0-20 (got -)",
        ),
        (
            "flow phase=rally arg=0,0,-",
            "phase=rally: arg's first number counts the villagers still to collect, at least 1",
        ),
        // The enemies' turn resumes from an enemy decision: its mover must be on the map.
        (
            "flow phase=tie stage=move mover=0 steps=2",
            "phase=tie mover=0 steps=2: die 1 is not on the map",
        ),
        (
            "flow phase=tie stage=move mover=0 steps=0\ndie 1 at=5 hp=2",
            "phase=tie waits on a mover with steps left: a die on the map (mover 0-11) with stage=move, or the boss (mover=12) with stage=boss_move (got stage=move mover=0 steps=0)",
        ),
        (
            "flow phase=corner stage=boss_attack",
            "phase=corner stage=boss_attack: the boss attacks only once it is up",
        ),
        (
            "flow phase=flee stage=boss_move mover=12",
            "phase=flee mover=12: the boss moves or attacks only once it is up",
        ),
        (
            "wave on_card=1,0",
            "on_card=1,0: the black camp card holds 0 dice (die lines with at=card)",
        ),
    ] {
        let e = Buried::from_position(&format!("buried-position 1\n{text}\n")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (2, want), "{text}");
    }
    // The same phases where they are real: the Banshee (die 2, a bow) on Taproom 11 with
    // villagers on Mill Pond 5 and Cellar 12 beside it.
    let victim = pos(
        "die 2 at=11 hp=2\nvillagers placed=5,12 ready=0\nhero at=20\nflow phase=victim stage=attack mover=1",
    );
    assert_eq!(legal(&victim), vec![A::Pick(5), A::Pick(12)]);
    // The Wolf (wave 3's second camp, die 7) drives the villager off Taproom 11.
    let push = pos(
        "wave number=3\ndie 7 at=11 hp=1\nvillagers placed=11 ready=0\nflow phase=push stage=move mover=6 arg=11,0,-",
    );
    assert_eq!(
        legal(&push),
        vec![A::Pick(1), A::Pick(3), A::Pick(5), A::Pick(6), A::Pick(12)]
    );

    // What the reader takes but leaves no decision is the shared check of `play`: Gale Winds
    // with nothing on the map to blow; a finished game is read as it is.
    let e = sololab::position_text::playable::<Buried>("buried-position 1\nflow phase=target\n")
        .unwrap_err();
    assert_eq!(
        (e.line, e.message.as_str()),
        (
            0,
            "the position leaves no legal action, and the game is not over"
        )
    );
    let over =
        sololab::position_text::playable::<Buried>("buried-position 1\nflow phase=over result=1\n")
            .expect("a finished game is read");
    assert_eq!(over.outcome(), Some(Outcome::Won));
}
