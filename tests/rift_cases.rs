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
/// removed, and a fourth shield/acid token entered play (a position the parser refuses).
#[test]
fn free_token_frees_a_shield_from_a_unit_that_also_has_fire() {
    use sololab::games::rift::content::Status;
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
    assert_eq!(r.tokens_in_play(Status::Acid), 3, "one token was freed");
    assert_eq!(
        r.mechs[0].status,
        st::FIRE,
        "mech A's shield is the one freed"
    );
    let text = Rift::to_position(&r);
    assert!(
        Rift::from_position(&text).is_ok(),
        "the engine's state loads back"
    );
}
