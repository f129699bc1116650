//! The rulebook's cases with known answers (`../shared/cases/rift.md`, R1-R9), each set up
//! through the position format and checked against the expected values.

use sololab::games::rift::board::{coord, parse_coord};
use sololab::games::rift::content::{Attack, Dir, Move, Shape, SideHit};
use sololab::games::rift::rules::Hit;
use sololab::games::rift::state::{NO_AIM, Where, st};
use sololab::games::rift::{LOSS_CAUSES, Rift, RiftAction};
use sololab::{Game, GameRng, NoTrace, Outcome, VecTrace};

/// Builds a position: the header and defaults, then the case's own lines.
fn position(lines: &str) -> Rift {
    let text = format!(
        "rift-position 1\ncontent builtin\nmonster_cards Nightmare,Demon,Wraith\n{}",
        lines.trim_start()
    );
    Rift::from_position(&text).unwrap_or_else(|e| panic!("case position: {e}\n{text}"))
}

fn t(s: &str) -> u8 {
    parse_coord(s).unwrap()
}

const EMPTY_BOARD: &str = "terrain\n......\n......\n......\n......\n......\n......\n";

fn r1_position() -> Rift {
    position(
        "clock die=4 die_card=2 compass=ESWN seek=east phase=actions\n\
         mech A tile=(5,5) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=0 alpha=0 tile=(3,4)\n\
         terrain\n......\n...B..\n....B.\n......\n......\n......\n",
    )
}

#[test]
fn r1_compass_picks_direction_then_tile() {
    let mut r = r1_position();
    // The case's Demon: not flying, movement 2, 1 damage to an adjacent tile.
    let demon = r.stats(0);
    assert_eq!(demon.movement, 2);
    assert_eq!(demon.attack.shape, Shape::Adjacent);
    assert_eq!(demon.attack.damage, 1);
    r.monsters_move_and_aim(&mut NoTrace);
    let m = r.monsters[0];
    assert_eq!(coord(m.tile), "(4,5)", "the Demon moves to (4,5)");
    assert_eq!(m.aim_dir, Dir::East as u8, "and aims east");
    let aimed = r
        .aim_tile(&r.stats(0).attack, m.tile, Dir::East, m.aim_dist)
        .unwrap();
    assert_eq!(coord(aimed), "(5,5)", "at mech C");
}

#[test]
fn r2_flying_wraith_with_an_earlier_aim() {
    let mut r = position(
        "clock die=4 die_card=2 compass=ESWN seek=east phase=actions\n\
         mech A tile=(5,5) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=0 alpha=0 tile=(3,4)\n\
         monster 2 at=map card=3 place=0 alpha=0 tile=(2,2)\n\
         terrain\n......\n...B..\n....B.\n......\n......\n......\n",
    );
    assert_eq!(r.stats(1).movement, 3);
    assert_eq!(
        r.stats(1).locomotion,
        sololab::games::rift::content::Locomotion::Fly
    );
    r.monsters_move_and_aim(&mut NoTrace);
    assert_eq!(coord(r.monsters[0].tile), "(4,5)");
    let w = r.monsters[1];
    assert_eq!(coord(w.tile), "(4,3)", "the Wraith moves to (4,3)");
    assert_eq!(w.aim_dir, Dir::East as u8);
    assert_eq!(
        coord(
            r.aim_tile(&r.stats(1).attack, w.tile, Dir::East, w.aim_dist)
                .unwrap()
        ),
        "(5,3)"
    );
}

#[test]
fn r3_detect_order_and_spawn_tile_stepping() {
    // Spawn tiles 1-4 on row 6 and 5-8 on row 5; the mech stands on spawn tile 5.
    let mut r = position(&format!(
        "clock die=4 die_card=2 phase=actions\n\
         mech A tile=(1,5) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(1,1)\n\
         {EMPTY_BOARD}spawns\n......\n......\n......\n......\n5678..\n1234..\n"
    ));
    let mut trace = VecTrace::default();
    let n = r.detect_up_to(4, &mut trace);
    assert_eq!(
        n, 3,
        "three monsters in the supply are detected: {:?}",
        trace.0
    );
    let detected: Vec<(String, String)> = {
        let mut v: Vec<_> = r
            .monsters
            .iter()
            .filter(|m| m.at == Where::Detected)
            .map(|m| (m.order, r.card_name(m.card).to_string(), coord(m.tile)))
            .collect();
        v.sort();
        v.into_iter().map(|(_, a, b)| (a, b)).collect()
    };
    assert_eq!(
        detected,
        vec![
            ("Demon".to_string(), coord(r.spawn[3])),
            ("Wraith".to_string(), coord(r.spawn[5])),
            ("Nightmare".to_string(), coord(r.spawn[6])),
        ]
    );
    assert_eq!(coord(r.spawn[3]), "(4,6)");
    assert_eq!(
        coord(r.spawn[4]),
        "(1,5)",
        "spawn tile 5 holds the mech and is skipped"
    );
}

fn r4_position() -> Rift {
    // Colours: 4 pink Nightmare, 3 purple Alpha Demon (4 HP, inner track), 1 orange Alpha Demon
    // (3 HP, printed track), 2 red Alpha Wraith.
    position(&format!(
        "clock die=1 die_card=1 phase=actions alpha_limit=3\n\
         mech A tile=(6,6) hp=3 max_hp=3\n\
         monster 4 at=map card=1 place=0 alpha=0 tile=(1,1)\n\
         monster 3 at=map card=2 place=2 alpha=1 tile=(2,1) hp=4\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,1) hp=3\n\
         monster 2 at=map card=3 place=3 alpha=1 tile=(4,1)\n\
         {EMPTY_BOARD}"
    ))
}

#[test]
fn r4_activation_order_by_card_then_cube_place() {
    let r = r4_position();
    let mut order = [0usize; 4];
    let n = r.activation_order(&mut order);
    assert_eq!(
        &order[..n],
        &[3, 2, 0, 1],
        "Nightmare, purple Demon, orange Demon, Wraith"
    );
    assert_eq!(r.monsters[2].hp, 4);
    assert_eq!(r.monsters[0].hp, 3);
}

#[test]
fn r4_survivor_moves_to_the_printed_track() {
    let mut r = r4_position();
    r.monsters[0].hp = 0; // the orange Demon on the printed track dies
    r.remove_dead(&mut NoTrace);
    assert_eq!(r.monsters[0].at, Where::Supply);
    assert_eq!(
        r.monsters[2].place, 3,
        "the purple Demon moves to the printed Alpha track"
    );
}

#[test]
fn r5_blocked_spawn_sends_back_and_bumps() {
    let mut r = position(&format!(
        "clock die=1 die_card=1 phase=actions\n\
         mech A tile=(3,6) hp=3 max_hp=3\n\
         mech B tile=(6,6) hp=3 max_hp=3\n\
         monster 1 at=detected card=2 tile=(3,6) order=0\n\
         {EMPTY_BOARD}spawns\n......\n......\n......\n......\n......\n..3...\n"
    ));
    r.spawn(&mut NoTrace);
    assert_eq!(
        r.monsters[0].at,
        Where::Supply,
        "nothing spawns; the monster goes back"
    );
    assert_eq!(r.mechs[0].hp, 2, "the mech takes 1 bump damage");
    assert_eq!(r.tally.blocked, 1);
}

fn push_only() -> Attack {
    Attack {
        name: 0,
        shape: Shape::Adjacent,
        damage: 0,
        movement: Move::Push,
        status: None,
        immobilize: false,
        sides: SideHit::None,
        splash: false,
        aims_at_terrain: false,
    }
}

#[test]
fn r6_push_into_a_building_bumps_both_and_ruins_it() {
    // The case's monster has 3 HP: an Alpha Demon (4 HP at full) already hurt once.
    let mut r = position(
        "clock phase=actions ruins=3\n\
         mech A tile=(2,3) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,3) hp=3\n\
         terrain\n......\n......\n...B..\n......\n......\n......\n",
    );
    r.resolve_attack(&push_only(), t("(3,3)"), Dir::East, None, &mut NoTrace);
    assert_eq!(coord(r.monsters[0].tile), "(3,3)", "nothing moves");
    assert_eq!(r.monsters[0].hp, 2, "the monster takes 1 bump damage");
    assert_eq!(r.ruins, 2, "a ruin goes on the building");
    assert_eq!(
        r.occupied() & (1u64 << t("(4,3)")),
        0,
        "the ruined tile counts as empty"
    );
}

#[test]
fn r6_push_against_the_edge_does_nothing() {
    let mut r = position(&format!(
        "clock phase=actions ruins=3\n\
         mech A tile=(5,3) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(6,3) hp=3\n\
         {EMPTY_BOARD}"
    ));
    r.resolve_attack(&push_only(), t("(6,3)"), Dir::East, None, &mut NoTrace);
    assert_eq!(coord(r.monsters[0].tile), "(6,3)");
    assert_eq!(r.monsters[0].hp, 3, "edges never bump");
    assert_eq!(r.ruins, 3);
}

#[test]
fn r7_water_kills_a_walker_pushed_in_but_not_a_flier() {
    // Card 1 Nightmare (walks), card 3 Wraith (flies).
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(1,3) hp=3 max_hp=3\n\
         mech B tile=(1,5) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(2,3)\n\
         monster 2 at=map card=3 place=0 alpha=0 tile=(2,5)\n\
         terrain\n......\n......\n..W...\n......\n..W...\n......\n",
    );
    assert_ne!(
        r.stats(0).locomotion,
        sololab::games::rift::content::Locomotion::Fly
    );
    r.resolve_attack(&push_only(), t("(2,3)"), Dir::East, None, &mut NoTrace);
    assert_eq!(r.monsters[0].at, Where::Supply, "the walker dies at once");
    assert_eq!(r.tally.kills, 1);
    r.resolve_attack(&push_only(), t("(2,5)"), Dir::East, None, &mut NoTrace);
    assert_eq!(r.monsters[1].at, Where::Map, "the flier is unharmed");
    assert_eq!(coord(r.monsters[1].tile), "(3,5)");
}

#[test]
fn r7_a_mech_on_water_cannot_attack_but_may_clear_its_statuses() {
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(3,3) hp=3 max_hp=3 status=fire\n\
         mech B tile=(6,6) hp=3 max_hp=3 done=1\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,4)\n\
         terrain\n......\n......\n..W...\n......\n......\n......\n",
    );
    if r.mech_flies(0) {
        // The case is about a non-flying mech: make it one with a walking card.
        let c = r.content;
        let walker = c
            .mechs
            .iter()
            .position(|m| m.locomotion != sololab::games::rift::content::Locomotion::Fly)
            .unwrap();
        r.mechs[0].card = walker as u8;
        r.mechs[0].mech_level = 0;
        r.mechs[0].pilot_level = 0;
    }
    let mut acts = Vec::new();
    r.legal_actions(&mut acts);
    assert!(
        !acts
            .iter()
            .any(|a| matches!(a, RiftAction::Attack { mech: 0, .. })),
        "{acts:?}"
    );
    assert!(acts.contains(&RiftAction::ClearStatus {
        mech: 0,
        mask: st::FIRE
    }));
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.apply(
        RiftAction::ClearStatus {
            mech: 0,
            mask: st::FIRE,
        },
        &mut rng,
    );
    assert_eq!(r.mechs[0].status, 0, "the fire token is removed");
    assert_eq!(r.mechs[0].hp, 3, "so it does not burn at Upkeep");
}

/// A board with no spawn tiles and no monsters: nothing can ever be detected, so the clock alone
/// ends the game.
fn count_turns(extra_turn: bool) -> (u32, Option<Outcome>) {
    let mut r = position(&format!(
        "clock campaign_die=6 turn=0 phase=deploy extra_turn={}\n\
         mech A tile=- hp=3 max_hp=3\nmech B tile=- hp=3 max_hp=3\n{EMPTY_BOARD}",
        u8::from(extra_turn)
    ));
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(3);
    let mut acts = Vec::new();
    let mut player_turns = 0;
    while r.outcome().is_none() {
        r.legal_actions(&mut acts);
        let a = acts[0];
        if a == RiftAction::EndActions || matches!(acts.last(), Some(RiftAction::EndActions)) {
            player_turns += 1;
            r.apply(RiftAction::EndActions, &mut rng);
        } else {
            r.apply(a, &mut rng);
        }
    }
    (player_turns, r.outcome())
}

#[test]
fn r8_a_default_game_has_five_turns_and_the_extra_turn_six() {
    assert_eq!(count_turns(false), (5, Some(Outcome::Won)));
    assert_eq!(count_turns(true), (6, Some(Outcome::Won)));
}

#[test]
fn r9_ruins_run_out_and_lose_the_campaign() {
    let mut r = position(
        "clock phase=actions ruins=1\n\
         mech A tile=(1,1) hp=3 max_hp=3\n\
         terrain\n......\n..B.B.\n......\n......\n......\n......\n",
    );
    r.damage(t("(3,2)"), 1, Hit::Attack, &mut NoTrace);
    assert_eq!(r.ruins, 0);
    assert_eq!(
        r.outcome(),
        None,
        "the first damaged building takes the last ruin"
    );
    r.damage(t("(5,2)"), 1, Hit::Attack, &mut NoTrace);
    let o = r.outcome();
    assert_eq!(o, Some(Outcome::Lost(1)));
    assert_eq!(LOSS_CAUSES[1], "ruins_exhausted");
}

#[test]
fn monster_aim_is_cleared_after_attacks() {
    let mut r = r1_position();
    r.monsters_move_and_aim(&mut NoTrace);
    r.monsters_attack(&mut NoTrace);
    assert_eq!(r.mechs[0].hp, 2, "the Demon's 1 damage lands on mech C");
    assert_eq!(r.monsters[0].aim_dir, NO_AIM);
}

#[test]
fn r1_the_shipped_example_position_gives_the_same_answer() {
    let mut r = Rift::from_position(include_str!("positions/r1-compass.pos")).unwrap();
    r.monsters_move_and_aim(&mut NoTrace);
    assert_eq!(coord(r.monsters[0].tile), "(4,5)");
    assert_eq!(r.monsters[0].aim_dir, Dir::East as u8);
}

/// Regression (issue 10): `free_token` isolated the lowest bit of the unit's whole status, so a
/// unit holding fire (bit 1) and a shield was reported as freeing a token while nothing was
/// removed, and a fourth shield/acid token entered play (a position the parser refuses). The
/// token to free is now the player's choice (I16); freeing mech A's shield leaves its fire.
#[test]
fn free_token_frees_a_shield_from_a_unit_that_also_has_fire() {
    use sololab::games::rift::content::Status;
    use sololab::games::rift::state::Phase;
    let mut r = position(
        "clock phase=actions\n\
         mech A tile=(1,1) hp=3 max_hp=3 status=fire,shield\n\
         mech B tile=(6,1) hp=3 max_hp=3 status=shield\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(3,4) hp=2 status=shield\n\
         monster 2 at=map card=2 place=0 alpha=0 tile=(5,4) hp=2\n",
    );
    assert_eq!(r.tokens_in_play(Status::Acid), 3, "the supply is empty");
    r.add_status(t("(5,4)"), Status::Acid, &mut NoTrace);
    assert_eq!(r.monsters[1].status, st::ACID, "the acid is added");
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.run_steps(&mut rng, &mut NoTrace);
    assert_eq!(r.phase, Phase::Choice, "the player must free a token");
    let mut legal = Vec::new();
    r.legal_actions(&mut legal);
    let freed = RiftAction::FreeToken {
        tile: t("(1,1)"),
        token: Status::Shield,
    };
    assert!(
        legal.contains(&freed),
        "mech A's shield is offered: {legal:?}"
    );
    r.apply(freed, &mut rng);
    assert_eq!(r.mechs[0].status, st::FIRE, "only the shield goes");
    assert_eq!(r.tokens_in_play(Status::Acid), 3, "one token was freed");
    assert_eq!(r.phase, Phase::Actions);
    let text = Rift::to_position(&r);
    assert!(
        Rift::from_position(&text).is_ok(),
        "the engine's state loads back"
    );
}

/// The tokens of `s`'s kind offered for removal, as `(tile, token)` text.
fn offered(r: &Rift) -> Vec<String> {
    let mut legal = Vec::new();
    r.legal_actions(&mut legal);
    legal
        .iter()
        .map(|a| match *a {
            RiftAction::FreeToken { tile, token } => format!("{} {}", coord(tile), token.name()),
            RiftAction::RemoveConflicting { tile, attached } => {
                format!(
                    "{} {}",
                    coord(tile),
                    if attached { "attached" } else { "tile" }
                )
            }
            other => format!("{other:?}"),
        })
        .collect()
}

/// I16 through the position format: Cinder's Firebomb sets a monster on fire while all three
/// fire/frozen tokens are in play (two fires lying on tiles, a frozen building). The player is
/// offered every one of them but the new fire, in tile order; the frozen building is chosen.
#[test]
fn i16_the_player_chooses_which_token_leaves_play() {
    use sololab::games::rift::content::Status;
    use sololab::games::rift::state::Phase;
    let mut r = position(
        "clock phase=actions\n\
         mech A card=Cinder pilot=Teo_Vance tile=(1,1) hp=3 max_hp=3\n\
         mech B card=Wukong pilot=Sun_Li tile=(3,1) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(1,3) hp=2\n\
         tokens fire=(4,4)(5,5) frozen_buildings=(6,1)\n\
         terrain\n.....B\n......\n......\n......\n......\n......\n",
    );
    assert_eq!(r.tokens_in_play(Status::Fire), 3);
    let firebomb = RiftAction::Attack {
        mech: 0,
        weapon: 0,
        dir: Dir::South as u8,
        dist: 2,
        throw: 255,
    };
    let mut legal = Vec::new();
    r.legal_actions(&mut legal);
    assert!(legal.contains(&firebomb), "{legal:?}");
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.apply(firebomb, &mut rng);
    assert_eq!(r.monsters[0].status, st::FIRE, "the fire attaches at once");
    assert_eq!(r.phase, Phase::Choice);
    assert_eq!(
        offered(&r),
        ["(6,1) frozen", "(4,4) fire", "(5,5) fire"],
        "every token of the kind in play but the new one, by tile"
    );
    // The position format holds the pending choice.
    let text = Rift::to_position(&r);
    assert!(
        text.contains("choice resume=actions done=- keep=(1,3)"),
        "{text}"
    );
    assert_eq!(Rift::from_position(&text).unwrap(), r);
    r.apply(
        RiftAction::FreeToken {
            tile: t("(6,1)"),
            token: Status::Frozen,
        },
        &mut rng,
    );
    assert_eq!(r.frozen_b, 0, "the building's frozen token left play");
    assert_eq!(r.fire.count_ones(), 2, "the lying fires stay");
    assert_eq!(r.tokens_in_play(Status::Fire), 3);
    assert_eq!(r.phase, Phase::Actions, "mech B still acts");
}

/// I17: a shielded mech stops on acid; the player chooses which token is removed, and each
/// choice does what it says.
#[test]
fn i17_the_player_chooses_between_conflicting_tokens() {
    use sololab::games::rift::state::Phase;
    let start = position(
        "clock phase=actions\n\
         mech A card=Atlas pilot=Marta_Kell tile=(1,1) hp=4 max_hp=4 status=shield\n\
         mech B card=Wukong pilot=Sun_Li tile=(6,1) hp=3 max_hp=3\n\
         monster 1 at=map card=1 place=0 alpha=0 tile=(4,5) hp=2\n\
         tokens acid=(1,2)\n",
    );
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    let mut r = start;
    r.apply(
        RiftAction::Move {
            mech: 0,
            tile: t("(1,2)"),
        },
        &mut rng,
    );
    assert_eq!(r.phase, Phase::Choice);
    assert_eq!(offered(&r), ["(1,2) tile", "(1,2) attached"]);
    let mut keep_shield = r;
    keep_shield.apply(
        RiftAction::RemoveConflicting {
            tile: t("(1,2)"),
            attached: false,
        },
        &mut rng,
    );
    assert_eq!(keep_shield.mechs[0].status, st::SHIELD);
    assert_eq!(keep_shield.acid, 0, "the acid token is discarded");
    assert_eq!(keep_shield.phase, Phase::Actions);
    let mut take_acid = r;
    take_acid.apply(
        RiftAction::RemoveConflicting {
            tile: t("(1,2)"),
            attached: true,
        },
        &mut rng,
    );
    assert_eq!(
        take_acid.mechs[0].status,
        st::ACID,
        "the shield goes, the acid attaches"
    );
    assert_eq!(take_acid.acid, 0);
}

// ---------------------------------------------------------------------------------------------
// Rule cases the shared cases (R1-R9) do not cover: pull, throw, side pushes, bumps between
// units, acid against bump damage, the ruin cap of an R reward. Each is a position played
// through the player's action (`apply`), so the action's fields reach the rules as they would in
// a game. Mech B stands out of the way and is not done, so an attack does not end Player
// actions (which would run Upkeep and the monsters' attacks).

/// Plays mech A's attack `weapon` aimed `dir` (0-3: N E S W) at `dist`, throwing `throw`
/// (255 for none), after checking it is among the legal actions.
fn mech_a_attacks(r: &mut Rift, weapon: u8, dir: u8, dist: u8, throw: u8) {
    let a = RiftAction::Attack {
        mech: 0,
        weapon,
        dir,
        dist,
        throw,
    };
    let mut acts = Vec::new();
    r.legal_actions(&mut acts);
    assert!(acts.contains(&a), "{a:?} is not offered: {acts:?}");
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(1);
    r.apply(a, &mut rng);
    assert_eq!(r.phase, sololab::games::rift::state::Phase::Actions);
}

/// The damage of mech A's basic attack, checked to be the named attack with the movement the
/// rulebook gives it (FAQ, Attack directions).
fn basic_attack(r: &Rift, name: &str, movement: Move) -> u8 {
    let a = r.weapon(0, 0);
    assert_eq!(r.content.attack_name(&a), name, "mech A's basic attack");
    assert_eq!(a.movement, movement, "{name}'s movement");
    assert!(a.damage >= 1, "{name} deals damage in these cases");
    a.damage
}

const MECH_B_AWAY: &str = "mech B card=Bulwark pilot=Dana_Okafor tile=(6,1) hp=5 max_hp=5\n";

#[test]
fn pull_moves_the_target_one_tile_toward_the_attacker() {
    // FAQ, Attack directions: "The Meteor attack pulls a target; this works exactly like a
    // push, just in the opposite direction". Starfall at (1,3) hits the Alpha Demon at (3,3)
    // (range 2+, aimed east): it comes one tile west, to (2,3).
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A card=Starfall pilot=Ivo_Rask tile=(1,3) hp=3 max_hp=3\n{MECH_B_AWAY}\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,3) hp=4\n{EMPTY_BOARD}"
    ));
    let dmg = basic_attack(&r, "Meteor", Move::Pull);
    mech_a_attacks(&mut r, 0, Dir::East as u8, 2, 255);
    assert_eq!(
        coord(r.monsters[0].tile),
        "(2,3)",
        "pulled west, not pushed east"
    );
    assert_eq!(r.monsters[0].hp, 4 - dmg, "the Meteor's damage, no bump");

    // Aimed north from (4,6) at (4,3), 3 tiles away: pulled south to (4,4).
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A card=Starfall pilot=Ivo_Rask tile=(4,6) hp=3 max_hp=3\n{MECH_B_AWAY}\
         monster 1 at=map card=2 place=3 alpha=1 tile=(4,3) hp=4\n{EMPTY_BOARD}"
    ));
    mech_a_attacks(&mut r, 0, Dir::North as u8, 3, 255);
    assert_eq!(coord(r.monsters[0].tile), "(4,4)");
}

#[test]
fn pull_into_a_unit_bumps_both_and_moves_nothing() {
    // Mech B stands between Starfall and its target: the pull meets B, so both take 1 bump
    // damage (Units) and nobody moves.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A card=Starfall pilot=Ivo_Rask tile=(1,3) hp=3 max_hp=3\n\
         mech B card=Bulwark pilot=Dana_Okafor tile=(2,3) hp=5 max_hp=5\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,3) hp=4\n{EMPTY_BOARD}"
    ));
    let dmg = basic_attack(&r, "Meteor", Move::Pull);
    mech_a_attacks(&mut r, 0, Dir::East as u8, 2, 255);
    assert_eq!(coord(r.monsters[0].tile), "(3,3)", "nothing moves");
    assert_eq!(coord(r.mechs[1].tile), "(2,3)");
    assert_eq!(r.monsters[0].hp, 4 - dmg - 1, "attack damage, then 1 bump");
    assert_eq!(r.mechs[1].hp, 4, "mech B takes 1 bump damage");
    assert_eq!(r.mechs[0].hp, 3, "the attacker is not touched");
}

#[test]
fn throw_goes_in_the_direction_the_attacker_chooses() {
    // FAQ, Attack directions: "Wukong's Throw attack must push in 1 of the 4 orthogonal
    // directions" (CONTENT.md, I32: also toward the attacker). Wukong at (3,3) throws the Alpha
    // Demon at (4,3) (aimed east).
    let start = position(&format!(
        "clock phase=actions\n\
         mech A card=Wukong pilot=Sun_Li tile=(3,3) hp=3 max_hp=3\n{MECH_B_AWAY}\
         monster 1 at=map card=2 place=3 alpha=1 tile=(4,3) hp=4\n{EMPTY_BOARD}"
    ));
    let dmg = basic_attack(&start, "Throw", Move::Throw);
    // The east aim is offered once per throw direction, N E S W.
    let mut acts = Vec::new();
    start.legal_actions(&mut acts);
    let throws: Vec<u8> = acts
        .iter()
        .filter_map(|a| match *a {
            RiftAction::Attack {
                mech: 0,
                dir: 1,
                throw,
                ..
            } => Some(throw),
            _ => None,
        })
        .collect();
    assert_eq!(throws, vec![0, 1, 2, 3]);
    for (throw, tile) in [
        (Dir::North, "(4,2)"),
        (Dir::East, "(5,3)"),
        (Dir::South, "(4,4)"),
    ] {
        let mut r = start;
        mech_a_attacks(&mut r, 0, Dir::East as u8, 1, throw as u8);
        assert_eq!(coord(r.monsters[0].tile), tile, "thrown {throw:?}");
        assert_eq!(r.monsters[0].hp, 4 - dmg, "thrown {throw:?}: no bump");
        assert_eq!(r.mechs[0].hp, 3);
    }
    // Thrown west, back into Wukong itself: a bump for both, nothing moves.
    let mut r = start;
    mech_a_attacks(&mut r, 0, Dir::East as u8, 1, Dir::West as u8);
    assert_eq!(coord(r.monsters[0].tile), "(4,3)");
    assert_eq!(coord(r.mechs[0].tile), "(3,3)");
    assert_eq!(r.monsters[0].hp, 4 - dmg - 1);
    assert_eq!(r.mechs[0].hp, 2, "Wukong takes the bump too");
    // Aimed north at a monster above, thrown west onto an empty tile.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A card=Wukong pilot=Sun_Li tile=(3,3) hp=3 max_hp=3\n{MECH_B_AWAY}\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,2) hp=4\n{EMPTY_BOARD}"
    ));
    mech_a_attacks(&mut r, 0, Dir::North as u8, 1, Dir::West as u8);
    assert_eq!(coord(r.monsters[0].tile), "(2,2)");
}

#[test]
fn grav_beam_pushes_its_side_tiles_outward() {
    // FAQ, Attack directions: fired east, the tiles left/right of the target are north and
    // south. Atlas at (1,3) fires east; the line stops at the Alpha Demon on (4,3). Mech B on
    // the left side tile (4,2) goes north to (4,1); the Nightmare on the right side tile (4,4)
    // goes south to (4,5). The target itself does not move.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A card=Atlas pilot=Marta_Kell tile=(1,3) hp=4 max_hp=4\n\
         mech B card=Bulwark pilot=Dana_Okafor tile=(4,2) hp=5 max_hp=5\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(4,3) hp=4\n\
         monster 2 at=map card=1 place=0 alpha=0 tile=(4,4)\n{EMPTY_BOARD}"
    ));
    let a = r.weapon(0, 0);
    assert_eq!(r.content.attack_name(&a), "Grav Beam");
    assert_eq!((a.shape, a.sides), (Shape::Line, SideHit::PushOut));
    let nightmare_hp = r.monsters[1].hp;
    mech_a_attacks(&mut r, 0, Dir::East as u8, 3, 255);
    assert_eq!(coord(r.monsters[0].tile), "(4,3)");
    assert_eq!(r.monsters[0].hp, 4 - a.damage);
    assert_eq!(coord(r.mechs[1].tile), "(4,1)", "left side: pushed north");
    assert_eq!(
        coord(r.monsters[1].tile),
        "(4,5)",
        "right side: pushed south"
    );
    assert_eq!(
        (r.mechs[1].hp, r.monsters[1].hp),
        (5, nightmare_hp),
        "push_out damages nothing on the sides"
    );
}

#[test]
fn push_forward_moves_both_side_tiles_in_the_aim_direction() {
    // An attack whose side tiles are pushed forward (content: sides = "push_forward"), aimed
    // south from (3,2) at (3,3): its side tiles are (4,3) (left of south is east) and (2,3).
    // Both go one tile south; the target is damaged and stays.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(3,2) hp=3 max_hp=3\n\
         mech B tile=(4,3) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,3) hp=4\n\
         monster 2 at=map card=1 place=0 alpha=0 tile=(2,3)\n{EMPTY_BOARD}"
    ));
    let ram = Attack {
        damage: 1,
        sides: SideHit::PushForward,
        movement: Move::None,
        ..push_only()
    };
    r.resolve_attack(&ram, t("(3,3)"), Dir::South, None, &mut NoTrace);
    assert_eq!(coord(r.monsters[0].tile), "(3,3)");
    assert_eq!(r.monsters[0].hp, 3);
    assert_eq!(coord(r.mechs[1].tile), "(4,4)", "east side: pushed south");
    assert_eq!(
        coord(r.monsters[1].tile),
        "(2,4)",
        "west side: pushed south"
    );
    assert_eq!(r.mechs[1].hp, 3);
}

#[test]
fn a_push_into_another_unit_bumps_both_and_moves_nothing() {
    // Units: "Whenever a unit is pushed toward a non-empty tile, nothing moves and instead both
    // things take 1 bump damage". A monster pushed east into another monster, then a monster
    // pushed north into a mech.
    let mut r = position(&format!(
        "clock phase=actions\n\
         mech A tile=(2,3) hp=3 max_hp=3\n\
         mech B tile=(5,2) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=3 alpha=1 tile=(3,3) hp=4\n\
         monster 2 at=map card=1 place=3 alpha=1 tile=(4,3) hp=3\n\
         monster 3 at=map card=2 place=0 alpha=0 tile=(5,3) hp=2\n{EMPTY_BOARD}"
    ));
    r.resolve_attack(&push_only(), t("(3,3)"), Dir::East, None, &mut NoTrace);
    assert_eq!(coord(r.monsters[0].tile), "(3,3)");
    assert_eq!(coord(r.monsters[1].tile), "(4,3)");
    assert_eq!((r.monsters[0].hp, r.monsters[1].hp), (3, 2), "1 bump each");
    r.resolve_attack(&push_only(), t("(5,3)"), Dir::North, None, &mut NoTrace);
    assert_eq!(coord(r.monsters[2].tile), "(5,3)");
    assert_eq!(
        (r.monsters[2].hp, r.mechs[1].hp),
        (1, 2),
        "monster and mech bump"
    );
    // A bump that kills: removed after the push resolves, the other unit stays put.
    r.resolve_attack(&push_only(), t("(5,3)"), Dir::North, None, &mut NoTrace);
    assert_eq!(
        r.monsters[2].at,
        Where::Supply,
        "the monster at 0 HP is removed"
    );
    assert_eq!((r.mechs[1].hp, coord(r.mechs[1].tile)), (1, "(5,2)".into()));
}

#[test]
fn acid_adds_to_attack_damage_but_not_to_bump_damage() {
    // Status Tokens, Acid: "+1 damage from attacks (but not bump damage, fire, etc.)".
    let acid_demon = |extra: &str| {
        position(&format!(
            "clock phase=actions\n\
             mech A card=Wukong pilot=Sun_Li tile=(3,3) hp=3 max_hp=3\n{MECH_B_AWAY}\
             monster 1 at=map card=2 place=3 alpha=1 tile=(4,3) hp=4 status=acid\n{extra}"
        ))
    };
    // Thrown east onto an empty tile: the Throw's damage + 1.
    let mut r = acid_demon(EMPTY_BOARD);
    let dmg = basic_attack(&r, "Throw", Move::Throw);
    mech_a_attacks(&mut r, 0, Dir::East as u8, 1, Dir::East as u8);
    assert_eq!(r.monsters[0].hp, 4 - dmg - 1, "attack damage + 1 for acid");
    // Pushed (no damage of its own) into a building: 1 bump damage only; the building is
    // ruined as usual.
    let mut r = acid_demon("terrain\n......\n......\n....B.\n......\n......\n......\n");
    let ruins = r.ruins;
    assert!(ruins >= 1);
    r.resolve_attack(&push_only(), t("(4,3)"), Dir::East, None, &mut NoTrace);
    assert_eq!(r.monsters[0].hp, 3, "bump damage is 1, acid or not");
    assert_eq!(r.ruins, ruins - 1, "the building takes a ruin");
    // Thrown back into Wukong: attack damage + 1, then the bump's 1 without acid.
    let mut r = acid_demon(EMPTY_BOARD);
    mech_a_attacks(&mut r, 0, Dir::East as u8, 1, Dir::West as u8);
    assert_eq!(r.monsters[0].hp, 4 - dmg - 1 - 1);
    assert_eq!(r.mechs[0].hp, 2);
}

/// The last turn of campaign game `game` (0-based) with `ruins` in the supply, the ruins setting
/// `cap`, and on map card `side` an objective whose red goal (both mechs survive) a quiet won
/// game meets; no monsters, so ending Player actions wins the game.
fn last_turn_with_a_met_goal(game: usize, side: usize, ruins: u8, cap: u8) -> Rift {
    let content = r1_position().content;
    let easy = content
        .objectives
        .iter()
        .find(|o| o.red == sololab::games::rift::content::Goal::BothMechsSurvive)
        .expect("an objective card whose red goal is both_mechs_survive");
    let name = easy.name.replace(' ', "_");
    let goals = if side == 0 {
        format!("left={name}:red right=-")
    } else {
        format!("left=- right={name}:red")
    };
    position(&format!(
        "clock campaign_die=1 die=1 die_card=1 turn=5 phase=actions ruins={ruins}\n\
         mech A tile=(1,1) hp=3 max_hp=3\nmech B tile=(2,1) hp=3 max_hp=3\n\
         objectives {goals}\ncampaign on=1 game={} ruins_cap={cap}\n{EMPTY_BOARD}",
        game + 1
    ))
}

#[test]
fn an_r_reward_returns_one_lost_ruin_up_to_the_ruins_setting() {
    // Campaign: "R: Return 1 lost ruin token to the supply (max 3)"; CONTENT.md, I36: the
    // maximum is the game's ruins setting.
    let content = r1_position().content;
    let games = content.campaign.len();
    let r_rewards: Vec<(usize, usize)> = content.campaign[..games - 1]
        .iter()
        .enumerate()
        .flat_map(|(g, c)| {
            [(g, 0, c.left_reward.ruin), (g, 1, c.right_reward.ruin)]
                .into_iter()
                .filter(|x| x.2)
                .map(|(g, s, _)| (g, s))
        })
        .collect();
    assert!(
        !r_rewards.is_empty(),
        "the campaign card has no R reward before the finale: this case needs one"
    );
    for (game, side) in r_rewards {
        for (ruins, cap, after) in [(1, 2, 2), (0, 3, 1), (2, 2, 2), (1, 1, 1), (3, 3, 3)] {
            let mut r = last_turn_with_a_met_goal(game, side, ruins, cap);
            let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(2);
            r.apply(RiftAction::EndActions, &mut rng);
            assert_eq!(
                (r.campaign.game as usize, r.campaign.objectives_met),
                (game + 1, 1),
                "game {} was won with its goal met",
                game + 1
            );
            assert_eq!(
                r.ruins,
                after,
                "game {}, {} reward: {ruins} ruins with the setting at {cap}",
                game + 1,
                ["left", "right"][side]
            );
        }
    }
    // Without a met goal no ruin comes back.
    let mut r = last_turn_with_a_met_goal(2, 0, 1, 3);
    r.objectives = [u8::MAX; 2];
    let mut rng = <GameRng as rand::SeedableRng>::seed_from_u64(2);
    r.apply(RiftAction::EndActions, &mut rng);
    assert_eq!((r.campaign.game, r.ruins), (3, 1));
}
