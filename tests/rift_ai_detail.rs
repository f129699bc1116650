//! Details of the monsters' AI (`src/games/rift/ai.rs`: Monsters Move + Aim, Detect) that the
//! rulebook's cases (`tests/rift_cases.rs`) and the golden games leave open, each found by
//! mutation testing (`scripts/mutants.sh`, issue 11; `results/mutants/rift.md` lists which
//! mutant each test kills). Each test sets up a position through the position format, runs the
//! monsters' step and checks where a monster stops and what it aims at, worked out by hand from
//! the rulebook's procedure: the die's column first, then columns in the seek direction; in a
//! column the option in the compass's first direction, then the one whose target lies furthest
//! along the compass, then the stop furthest along the compass (CONTENT.md I4).

use sololab::games::rift::Rift;
use sololab::games::rift::board::{coord, parse_coord};
use sololab::games::rift::content::Dir;
use sololab::games::rift::state::{NO_AIM, Where, st};
use sololab::{Game, NoTrace};

/// Builds a position with monster cards `cards` (comma-separated, the row left to right): the
/// header, then the case's own lines.
fn position(cards: &str, lines: &str) -> Rift {
    let text = format!(
        "rift-position 1\ncontent builtin\nmonster_cards {cards}\n{}",
        lines.trim_start()
    );
    Rift::from_position(&text).unwrap_or_else(|e| panic!("case position: {e}\n{text}"))
}

fn t(s: &str) -> u8 {
    parse_coord(s).unwrap()
}

/// A 6×6 terrain grid, north row first, with mountains (`M`) on the given tiles.
fn terrain_with_mountains(mountains: &[&str]) -> String {
    let mut rows = vec![vec!['.'; 6]; 6];
    for m in mountains {
        let tile = t(m);
        let (c, r) = (tile as usize % 6, tile as usize / 6);
        rows[r][c] = 'M';
    }
    let mut s = "terrain\n".to_string();
    for r in rows {
        s.extend(r);
        s.push('\n');
    }
    s
}

/// Where monster 1 stops and what it aims: (stop, direction, aimed tile), or (stop, None) when
/// it aims nothing.
fn moved_and_aimed(r: &mut Rift) -> (String, Option<(Dir, String)>) {
    r.monsters_move_and_aim(&mut NoTrace);
    let m = r.monsters[0];
    if m.aim_dir == NO_AIM {
        return (coord(m.tile), None);
    }
    let d = Dir::from_index(m.aim_dir);
    let aimed = r
        .aim_tile(&r.stats(0).attack, m.tile, d, m.aim_dist)
        .expect("an aim on the map");
    (coord(m.tile), Some((d, coord(aimed))))
}

/// The Alpha Herald (Bile Burst: exact 2, splash, aims at terrain; 3 movement, walks) on card 1
/// at `from`, mech A at `mech`, mountains at `mountains`, with the monster die `die` (its column
/// is scanned first, then eastward) and the compass `compass`.
fn alpha_herald(from: &str, mech: &str, mountains: &[&str], die: u8, compass: &str) -> Rift {
    let r = position(
        "Herald,Demon,Wraith",
        &format!(
            "clock die={die} die_card=1 compass={compass} seek=east phase=actions\n\
             mech A tile={mech} hp=3 max_hp=3\n\
             monster 1 at=map card=1 place=2 alpha=1 tile={from} hp=5\n\
             {}",
            terrain_with_mountains(mountains)
        ),
    );
    let a = r.stats(0).attack;
    assert!(
        a.splash && a.aims_at_terrain,
        "the Alpha Herald's Bile Burst"
    );
    assert_eq!(r.stats(0).movement, 3);
    r
}

#[test]
fn the_alpha_herald_splashes_a_mech_from_an_edge_tile_of_each_side() {
    // FAQ: the Alpha Herald "will aim at mountains or map edges (but not other monsters)" so that
    // its splash hits a target. In each position no stop within its 3 moves aims the exact-2
    // burst at the mech itself (the mountain blocks the one stop that would), and in the die's
    // column exactly one stop aims at an edge tile next to the mech.
    //
    // West edge: from (3,4) west 2 to (1,4), next to the mech at (1,3). From (3,5) west 2 is
    // (1,5), two tiles from the mech; (3,3) is the mountain.
    let mut r = alpha_herald("(5,4)", "(1,3)", &["(3,3)"], 3, "WNES");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,4)".into(), Some((Dir::West, "(1,4)".into())))
    );
    // East edge, the mirror: from (4,4) east 2 to (6,4), next to the mech at (6,3).
    let mut r = alpha_herald("(2,4)", "(6,3)", &["(4,3)"], 4, "ENWS");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,4)".into(), Some((Dir::East, "(6,4)".into())))
    );
    // North edge: it stays at (3,3) and aims north 2 at (3,1), next to the mech at (3,2);
    // (3,4), from which it would aim at the mech itself, is the mountain, and the way round to
    // (3,1) is 4 moves.
    let mut r = alpha_herald("(3,3)", "(3,2)", &["(3,4)"], 3, "WNES");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,3)".into(), Some((Dir::North, "(3,1)".into())))
    );
    // South edge, the mirror: it stays at (3,4) and aims south 2 at (3,6).
    let mut r = alpha_herald("(3,4)", "(3,5)", &["(3,3)"], 3, "WNES");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,4)".into(), Some((Dir::South, "(3,6)".into())))
    );
}

#[test]
fn the_alpha_herald_aims_at_a_corner_when_the_compass_prefers_that_stop() {
    // Mech at (1,2); mountains at (3,2) and (1,4) block both stops that aim at the mech itself.
    // In column 3 two stops aim west at an edge tile next to the mech: (3,1) at the corner
    // (1,1), and (3,3) at (1,3). Same target, same direction: the stop further along the compass
    // (W, then N) wins: (3,1), further north. A corner is an edge tile.
    let mut r = alpha_herald("(4,2)", "(1,2)", &["(3,2)", "(1,4)"], 3, "WNES");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,1)".into(), Some((Dir::West, "(1,1)".into())))
    );
    // The mirror east-west (compass E, then N): the stop (4,1) aims east at the corner (6,1),
    // not (4,3) at (6,3).
    let mut r = alpha_herald("(3,2)", "(6,2)", &["(4,2)", "(6,4)"], 4, "ENWS");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,1)".into(), Some((Dir::East, "(6,1)".into())))
    );
    // The mirror through the map's centre, with the mirrored compass (E, then S): the stop
    // (4,6) aims east at the corner (6,6), not (4,4) at (6,4).
    let mut r = alpha_herald("(3,5)", "(6,5)", &["(4,5)", "(6,3)"], 4, "ESWN");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,6)".into(), Some((Dir::East, "(6,6)".into())))
    );
}

#[test]
fn the_alpha_herald_aims_at_an_inner_mountain_but_never_at_a_monster_or_plain_ground() {
    // Mech at (2,3) next to the mountain (3,3), in the middle of the map. Die 5: in column 5 the
    // stop (5,3) aims west 2 at the mountain, whose splash hits the mech. (The stop (4,3), which
    // would aim at the mech itself, is in column 4, scanned later.)
    let mut r = alpha_herald("(5,5)", "(2,3)", &["(3,3)"], 5, "WNES");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(5,3)".into(), Some((Dir::West, "(3,3)".into())))
    );
    // The west-edge position with a Demon standing on the edge tile (1,4): the Herald may not
    // aim at a monster, and no other stop within reach aims at the mech or next to it from an
    // edge or a mountain ((2,3) next to the mech is plain ground): it aims nothing.
    let mut r = position(
        "Herald,Demon,Wraith",
        &format!(
            "clock die=3 die_card=1 compass=WNES seek=east phase=actions\n\
             mech A tile=(1,3) hp=3 max_hp=3\n\
             monster 1 at=map card=1 place=2 alpha=1 tile=(5,4) hp=5\n\
             monster 2 at=map card=2 place=0 alpha=0 tile=(1,4) hp=2\n\
             {}",
            terrain_with_mountains(&["(3,3)"])
        ),
    );
    // The Herald moves and aims first (card 1 is the die's card).
    let mut order = [0usize; 4];
    assert_eq!(r.activation_order(&mut order), 2);
    assert_eq!(order[0], 0);
    r.move_and_aim(0, &mut NoTrace);
    assert_eq!(r.monsters[0].aim_dir, NO_AIM, "no aim at the Demon's tile");
}

/// A normal Demon (Binding Claw: adjacent; 2 movement, walks; compass E, S, W, N) as monster 1
/// on card 1 at `from`, with the case's other lines; the die shows `die` (its column is scanned
/// first, then eastward).
fn demon(from: &str, die: u8, lines: &str) -> Rift {
    let r = on_card(1, from, die, lines);
    assert_eq!(r.stats(0).movement, 2);
    r
}

/// A normal Wraith (Rake: adjacent; 3 movement, flies) as monster 1 on card 2 at `from`, the
/// rest as [`demon`].
fn wraith(from: &str, die: u8, lines: &str) -> Rift {
    let r = on_card(2, from, die, lines);
    assert_eq!(r.stats(0).movement, 3);
    r
}

/// Monster 1 on card `card` of Demon, Wraith, Nightmare at `from`, with the compass E, S, W, N.
fn on_card(card: u8, from: &str, die: u8, lines: &str) -> Rift {
    position(
        "Demon,Wraith,Nightmare",
        &format!(
            "clock die={die} die_card=1 compass=ESWN seek=east phase=actions\n\
             monster 1 at=map card={card} place=0 alpha=0 tile={from} hp=2\n\
             {lines}"
        ),
    )
}

/// Mech A where a Demon at (3,3) cannot reach a tile next to it (4 moves away).
const FAR_MECH: &str = "mech A tile=(1,6) hp=3 max_hp=3\n";

const EMPTY_BOARD: &str = "terrain\n......\n......\n......\n......\n......\n......\n";

#[test]
fn a_frozen_monster_is_a_target_and_a_monster_that_is_not_frozen_is_not() {
    // CONTENT.md I5: monsters attack frozen targets, monsters included. No building; the mech
    // at (1,6) is out of reach (4 moves to a tile next to it); the Wraith at (5,3) is frozen.
    // Columns from 1 eastward: the first stop within 2 moves next to the Wraith is (4,3), in
    // column 4; it aims east at it.
    let frozen = format!(
        "{FAR_MECH}monster 2 at=map card=2 place=0 alpha=0 tile=(5,3) hp=2 status=frozen\n\
         {EMPTY_BOARD}"
    );
    let mut r = demon("(3,3)", 1, &frozen);
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,3)".into(), Some((Dir::East, "(5,3)".into())))
    );
    // With I5 flipped a frozen monster is no target either: nothing to aim at.
    let mut r = demon("(3,3)", 1, &frozen);
    r.campaign.rules &= !sololab::games::rift::switches::rule::FROZEN_MONSTERS_TARGETS;
    assert_eq!(moved_and_aimed(&mut r).1, None);
    // The same Wraith not frozen is no target: nothing to aim at.
    let mut r = demon(
        "(3,3)",
        1,
        &format!(
            "{FAR_MECH}monster 2 at=map card=2 place=0 alpha=0 tile=(5,3) hp=2\n{EMPTY_BOARD}"
        ),
    );
    assert_eq!(moved_and_aimed(&mut r).1, None);
}

#[test]
fn a_rock_is_attacked_only_when_no_mech_or_building_can_be_from_any_column() {
    use sololab::games::rift::switches::rule;
    // CONTENT.md I6. The rock at (2,3) is next to the Demon, in the die's column (2); the mech
    // at (5,4) can be attacked only from column 4 ((4,4), east) or 5 ((5,3), south). The mech
    // comes first, from the first column that offers it: (4,4), east.
    let lines = format!("mech A tile=(5,4) hp=3 max_hp=3\ntokens rock=(2,3)\n{EMPTY_BOARD}");
    let mut r = demon("(3,3)", 2, &lines);
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,4)".into(), Some((Dir::East, "(5,4)".into())))
    );
    // With I6 flipped the rock is a target like the mech: the die's column 2 offers it, from
    // (2,2) aiming south (south before north on the compass).
    let mut r = demon("(3,3)", 2, &lines);
    r.campaign.rules &= !rule::ROCKS_LAST;
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(2,2)".into(), Some((Dir::South, "(2,3)".into())))
    );
    // With the mech out of reach the rock is the target: in column 2 the stops (2,2) (aiming
    // south) and (2,4) (north) both reach it; south comes before north on the compass.
    let mut r = demon(
        "(3,3)",
        2,
        &format!("{FAR_MECH}tokens rock=(2,3)\n{EMPTY_BOARD}"),
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(2,2)".into(), Some((Dir::South, "(2,3)".into())))
    );
}

#[test]
fn a_monster_never_aims_from_smoke() {
    // Status Tokens, Smoke. The mech at (3,5); from the Demon at (4,4), the die's column 3
    // offers (3,4) aiming south at it, but (3,4) holds smoke; column 4 offers (4,5) aiming
    // west.
    let mut r = demon(
        "(4,4)",
        3,
        &format!("mech A tile=(3,5) hp=3 max_hp=3\ntokens smoke=(3,4)\n{EMPTY_BOARD}"),
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,5)".into(), Some((Dir::West, "(3,5)".into())))
    );
    // Without the smoke it stops at (3,4).
    let mut r = demon(
        "(4,4)",
        3,
        &format!("mech A tile=(3,5) hp=3 max_hp=3\n{EMPTY_BOARD}"),
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,4)".into(), Some((Dir::South, "(3,5)".into())))
    );
}

#[test]
fn walkers_go_round_mountains_water_and_mechs_and_through_monsters_fliers_over_all() {
    use sololab::games::rift::switches::rule;
    // Units: walkers move only over ground (not buildings, mountains, rocks, water or enemies);
    // fliers over anything (they may stop on water). I9: walkers pass through other monsters.
    // The mech at (3,6); the Demon at (3,3) could hit it from (3,5), two moves south, but (3,4)
    // is a mountain: the way round is 4 moves. No attack within reach, so it moves toward the
    // closest stop that attacks (Monsters Move + Aim): at 4 moves, (2,6) aiming east (east
    // first on the compass); two moves along that shortest path bring it to (2,4).
    let mech = "mech A tile=(3,6) hp=3 max_hp=3\n";
    let mut r = demon(
        "(3,3)",
        3,
        &format!("{mech}{}", terrain_with_mountains(&["(3,4)"])),
    );
    assert_eq!(moved_and_aimed(&mut r), ("(2,4)".into(), None));
    // I8 flipped: the closest attack stop by straight distance is (3,5) (2 tiles away, 4 moves
    // round the mountain); of the tiles two moves along a shortest path there, (2,4) and (4,4),
    // the compass takes the eastern one.
    let mut r = demon(
        "(3,3)",
        3,
        &format!("{mech}{}", terrain_with_mountains(&["(3,4)"])),
    );
    r.campaign.rules &= !rule::FALLBACK_PATH_DISTANCE;
    assert_eq!(moved_and_aimed(&mut r), ("(4,4)".into(), None));
    // Water at (3,4) blocks it the same way.
    let mut r = demon(
        "(3,3)",
        3,
        &format!("{mech}terrain\n......\n......\n......\n..W...\n......\n......\n"),
    );
    assert_eq!(moved_and_aimed(&mut r), ("(2,4)".into(), None));
    // Another monster at (3,4) does not: it walks through to (3,5) and aims south.
    let mut r = demon(
        "(3,3)",
        3,
        &format!("{mech}monster 2 at=map card=3 place=0 alpha=0 tile=(3,4) hp=2\n{EMPTY_BOARD}"),
    );
    r.move_and_aim(0, &mut NoTrace);
    let m = r.monsters[0];
    assert_eq!(
        (coord(m.tile), m.aim_dir, m.aim_dist),
        ("(3,5)".into(), Dir::South as u8, 1)
    );
    // With I9 flipped the monster blocks it as the mountain does.
    let mut r = demon(
        "(3,3)",
        3,
        &format!("{mech}monster 2 at=map card=3 place=0 alpha=0 tile=(3,4) hp=2\n{EMPTY_BOARD}"),
    );
    r.campaign.rules &= !rule::WALK_THROUGH_MONSTERS;
    assert_eq!(moved_and_aimed(&mut r), ("(2,4)".into(), None));
    // The flying Wraith goes over the mountain to (3,5).
    let mut r = wraith(
        "(3,3)",
        3,
        &format!("{mech}{}", terrain_with_mountains(&["(3,4)"])),
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,5)".into(), Some((Dir::South, "(3,6)".into())))
    );
    // And it stops on water at (3,5), the only tile next to the mech within its 3 moves.
    let mut r = wraith(
        "(3,3)",
        3,
        &format!("{mech}terrain\n......\n......\n......\n......\n..W...\n......\n"),
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,5)".into(), Some((Dir::South, "(3,6)".into())))
    );
}

#[test]
fn a_monster_never_stops_on_another_monsters_aimed_tile_or_line() {
    // Monsters Move + Aim: monsters never stop where they would interfere with other monsters'
    // aimed attacks. The Nightmare at (1,5) aims east 2, at (3,5): the Demon at (3,3) may not
    // stop there to attack the mech at (3,6), and no other stop next to the mech is within 2
    // moves; it moves toward the closest, (2,6) at 4 moves aiming east, and ends at (2,4).
    let mut r = demon(
        "(3,3)",
        3,
        &format!(
            "mech A tile=(3,6) hp=3 max_hp=3\n\
             monster 2 at=map card=3 place=0 alpha=0 tile=(1,5) hp=2 aim=E2\n{EMPTY_BOARD}"
        ),
    );
    r.move_and_aim(0, &mut NoTrace);
    assert_eq!(
        (coord(r.monsters[0].tile), r.monsters[0].aim_dir),
        ("(2,4)".into(), NO_AIM)
    );
    // The Behemoth at (1,4) aims its line east at mech B on (5,4): (2,4), (3,4) and (4,4) lie on
    // the line before its target. The flying Wraith at (3,3) would attack mech A on (3,5) from
    // (3,4) (south, before north on the compass); it stops at (3,6) and aims north instead.
    let mut r = position(
        "Demon,Wraith,Behemoth",
        &format!(
            "clock die=3 die_card=1 compass=ESWN seek=east phase=actions\n\
             mech A tile=(3,5) hp=3 max_hp=3\n\
             mech B tile=(5,4) hp=3 max_hp=3\n\
             monster 1 at=map card=2 place=0 alpha=0 tile=(3,3) hp=2\n\
             monster 2 at=map card=3 place=0 alpha=0 tile=(1,4) hp=3 aim=E4\n{EMPTY_BOARD}"
        ),
    );
    r.move_and_aim(0, &mut NoTrace);
    let m = r.monsters[0];
    assert_eq!(
        (coord(m.tile), m.aim_dir),
        ("(3,6)".into(), Dir::North as u8)
    );
    // Without the Behemoth's aim it stops at (3,4).
    let mut r = position(
        "Demon,Wraith,Behemoth",
        &format!(
            "clock die=3 die_card=1 compass=ESWN seek=east phase=actions\n\
             mech A tile=(3,5) hp=3 max_hp=3\n\
             mech B tile=(5,4) hp=3 max_hp=3\n\
             monster 1 at=map card=2 place=0 alpha=0 tile=(3,3) hp=2\n\
             monster 2 at=map card=3 place=0 alpha=0 tile=(1,4) hp=3\n{EMPTY_BOARD}"
        ),
    );
    r.move_and_aim(0, &mut NoTrace);
    let m = r.monsters[0];
    assert_eq!(
        (coord(m.tile), m.aim_dir),
        ("(3,4)".into(), Dir::South as u8)
    );
}

/// Case R1 (rulebook, Monsters Move + Aim example; tests/rift_cases.rs): the Demon at (3,4)
/// moves to (4,5) and aims east at the mech on (5,5); mech B on (1,6) is out of its reach.
/// `monster_extra` adds to the Demon's line (a status), `extra` adds lines (tokens).
fn r1(monster_extra: &str, extra: &str) -> Rift {
    position(
        "Nightmare,Demon,Wraith",
        &format!(
            "clock die=4 die_card=2 compass=ESWN seek=east phase=actions\n\
             mech A tile=(5,5) hp=3 max_hp=3\n\
             mech B tile=(1,6) hp=3 max_hp=3\n\
             monster 1 at=map card=2 place=0 alpha=0 tile=(3,4) {monster_extra}\n{extra}\
             terrain\n......\n...B..\n....B.\n......\n......\n......\n"
        ),
    )
}

#[test]
fn what_a_monster_keeps_of_its_aim_under_each_reading_of_i10_and_i13() {
    use sololab::games::rift::board::NO_TILE;
    use sololab::games::rift::switches::rule;
    // Default readings: the aim moves with the monster (I10) and the immobilize holds the aimed
    // tile (I13): nothing else is kept.
    let mut r = r1("", "");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,5)".into(), Some((Dir::East, "(5,5)".into())))
    );
    assert_eq!((r.monsters[0].aim_from, r.monsters[0].holds), (NO_TILE, 0));
    assert_eq!(r.immobilized(), 1u64 << t("(5,5)"));
    // I10 flipped: the aim stays where it was made: the monster keeps the tile it aimed from.
    let mut r = r1("", "");
    r.campaign.rules &= !rule::AIM_MOVES_WITH_MONSTER;
    r.monsters_move_and_aim(&mut NoTrace);
    assert_eq!(
        (r.monsters[0].aim_from, r.monsters[0].holds),
        (t("(4,5)"), 0)
    );
    // I13 flipped: the Binding Claw holds mech A, the mech on the aimed tile.
    let mut r = r1("", "");
    r.campaign.rules &= !rule::IMMOBILIZE_TILE;
    r.monsters_move_and_aim(&mut NoTrace);
    assert_eq!((r.monsters[0].aim_from, r.monsters[0].holds), (NO_TILE, 1));
    assert_eq!(r.immobilized(), 1u64 << t("(5,5)"));
    // Mech A pushed on to (5,6): with I13 flipped the hold follows it (and holds nothing of
    // mech B); as read, the aimed tile stays immobilized.
    r.mechs[0].tile = t("(5,6)");
    assert_eq!(r.immobilized(), 1u64 << t("(5,6)"));
    // The same with the mechs' places swapped: the Binding Claw holds mech B.
    let mut s = position(
        "Nightmare,Demon,Wraith",
        "clock die=4 die_card=2 compass=ESWN seek=east phase=actions\n\
         mech A tile=(1,6) hp=3 max_hp=3\n\
         mech B tile=(5,5) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=0 alpha=0 tile=(3,4)\n\
         terrain\n......\n...B..\n....B.\n......\n......\n......\n",
    );
    s.campaign.rules &= !rule::IMMOBILIZE_TILE;
    assert_eq!(
        moved_and_aimed(&mut s),
        ("(4,5)".into(), Some((Dir::East, "(5,5)".into())))
    );
    assert_eq!(s.monsters[0].holds, 2);
    // A hold on mech B (as a position's `holds=B` writes it) holds mech B's tile.
    r.monsters[0].holds = 2;
    assert_eq!(r.immobilized(), 1u64 << t("(1,6)"));
    r.monsters[0].holds = 1;
    r.campaign.rules |= rule::IMMOBILIZE_TILE;
    assert_eq!(r.immobilized(), 1u64 << t("(5,5)"));
}

#[test]
fn a_frozen_monster_stays_and_aims_nothing_unless_i12_is_flipped() {
    // CONTENT.md I12 (rule_frozen_no_aim, on by default): a frozen monster neither moves nor
    // aims; flipped, it aims from where it stands without moving. The frozen Demon at (4,5),
    // next to the mech at (5,5).
    use sololab::games::rift::switches::rule;
    let frozen = || {
        position(
            "Nightmare,Demon,Wraith",
            "clock die=4 die_card=2 compass=ESWN seek=east phase=actions\n\
             mech A tile=(5,5) hp=3 max_hp=3\n\
             monster 1 at=map card=2 place=0 alpha=0 tile=(4,5) status=frozen\n",
        )
    };
    let mut r = frozen();
    assert_eq!(moved_and_aimed(&mut r), ("(4,5)".into(), None));
    let mut r = frozen();
    r.campaign.rules &= !rule::FROZEN_NO_AIM;
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,5)".into(), Some((Dir::East, "(5,5)".into())))
    );
    // Frozen two tiles from the mech, flipped: it cannot move to attack, so it aims nothing.
    let mut r = r1("status=frozen", "");
    r.campaign.rules &= !rule::FROZEN_NO_AIM;
    assert_eq!(moved_and_aimed(&mut r), ("(3,4)".into(), None));
}

#[test]
fn a_monster_that_moves_onto_a_fire_token_picks_it_up() {
    // Status Tokens: a unit that stops on a fire token gets fire (the token leaves the ground).
    let mut r = r1("", "tokens fire=(4,5)\n");
    assert_eq!(moved_and_aimed(&mut r).0, "(4,5)");
    assert_eq!((r.monsters[0].status, r.fire), (st::FIRE, 0));
    // One that stays where it is does not arrive anywhere: the fire under a monster that does
    // not move (pushed there with I19 flipped) stays on the ground.
    let mut r = position(
        "Nightmare,Demon,Wraith",
        "clock die=4 die_card=2 compass=ESWN seek=east phase=actions\n\
         mech A tile=(5,5) hp=3 max_hp=3\n\
         monster 1 at=map card=2 place=0 alpha=0 tile=(4,5)\n\
         tokens fire=(4,5)\n",
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,5)".into(), Some((Dir::East, "(5,5)".into())))
    );
    assert_eq!((r.monsters[0].status, r.fire), (0, 1u64 << t("(4,5)")));
    // A monster that cannot attack and moves toward a target arrives too: the Demon at (3,3),
    // blocked by the mountain at (3,4) from the mech at (3,6), walks to (2,4) (as in
    // `walkers_go_round_mountains_water_and_mechs_and_through_monsters_fliers_over_all`) onto
    // the fire token there.
    let mut r = demon(
        "(3,3)",
        3,
        &format!(
            "mech A tile=(3,6) hp=3 max_hp=3\ntokens fire=(2,4)\n{}",
            terrain_with_mountains(&["(3,4)"])
        ),
    );
    assert_eq!(moved_and_aimed(&mut r), ("(2,4)".into(), None));
    assert_eq!((r.monsters[0].status, r.fire), (st::FIRE, 0));
    // And one that has nowhere to go stays, its tile's fire on the ground: the Demon at (3,3)
    // walled in by mountains on every side.
    let mut r = demon(
        "(3,3)",
        3,
        &format!(
            "mech A tile=(3,6) hp=3 max_hp=3\ntokens fire=(3,3)\n{}",
            terrain_with_mountains(&["(3,2)", "(2,3)", "(4,3)", "(3,4)"])
        ),
    );
    assert_eq!(moved_and_aimed(&mut r), ("(3,3)".into(), None));
    assert_eq!((r.monsters[0].status, r.fire), (0, 1u64 << t("(3,3)")));
}

#[test]
fn the_movement_finales_unlimited_movement_and_water_as_ground() {
    // Finale unlimited_movement: the Demon at (1,1) reaches the mech at (6,6) from anywhere;
    // columns from the die's (1) eastward: the first that offers an attack is column 5, (5,6)
    // aiming east. Without the finale it cannot attack this turn.
    let far = |finale: &str| {
        demon(
            "(1,1)",
            1,
            &format!("finale {finale}\nmech A tile=(6,6) hp=3 max_hp=3\n{EMPTY_BOARD}"),
        )
    };
    let mut r = far("unlimited_movement");
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(5,6)".into(), Some((Dir::East, "(6,6)".into())))
    );
    let mut r = far("-");
    assert_eq!(moved_and_aimed(&mut r).1, None);
    // Finale water_as_ground: water at (3,4) no longer blocks the walking Demon.
    let mut r = demon(
        "(3,3)",
        3,
        "finale water_as_ground\nmech A tile=(3,6) hp=3 max_hp=3\n\
         terrain\n......\n......\n......\n..W...\n......\n......\n",
    );
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,5)".into(), Some((Dir::South, "(3,6)".into())))
    );
}

/// Case R3's position (tests/rift_cases.rs): die 4 on card 2 (the Demon); spawn tiles 1-4 on
/// row 6 and 5-8 on row 5; mech A stands on spawn tile 5; monster 1 (Nightmare) on the map;
/// monsters 2-4 in the supply.
fn r3() -> Rift {
    position(
        "Nightmare,Demon,Wraith",
        &format!(
            "clock die=4 die_card=2 phase=actions\n\
             mech A tile=(1,5) hp=3 max_hp=3\n\
             monster 1 at=map card=1 place=0 alpha=0 tile=(1,1)\n\
             {EMPTY_BOARD}spawns\n......\n......\n......\n......\n5678..\n1234..\n"
        ),
    )
}

/// The detected monsters: (colour 1-4, card name, spawn tile), in detection order.
fn detected(r: &Rift) -> Vec<(usize, String, String)> {
    let mut v: Vec<_> = (0..4)
        .filter(|&i| r.monsters[i].at == Where::Detected)
        .map(|i| {
            let m = r.monsters[i];
            (
                m.order,
                i + 1,
                r.card_name(m.card).to_string(),
                coord(m.tile),
            )
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, i, c, s)| (i, c, s)).collect()
}

#[test]
fn detect_goes_leftward_with_i1_flipped_stops_at_its_limit_and_when_no_tile_is_free() {
    use sololab::games::rift::switches::rule;
    let d = |i: usize, card: &str, tile: &str| (i, card.to_string(), tile.to_string());
    // Case R3 as read (rightward): Demon on spawn tile 4, Wraith on 6 (5 holds the mech),
    // Nightmare on 7.
    let mut r = r3();
    assert_eq!(r.detect_up_to(4, &mut NoTrace), 3);
    assert_eq!(
        detected(&r),
        [
            d(2, "Demon", "(4,6)"),
            d(3, "Wraith", "(2,5)"),
            d(4, "Nightmare", "(3,5)")
        ]
    );
    // CONTENT.md I1 flipped (rule_detect_right off): leftward, the Nightmare before the Wraith.
    let mut r = r3();
    r.campaign.rules &= !rule::DETECT_RIGHT;
    assert_eq!(r.detect_up_to(4, &mut NoTrace), 3);
    assert_eq!(
        detected(&r),
        [
            d(2, "Demon", "(4,6)"),
            d(3, "Nightmare", "(2,5)"),
            d(4, "Wraith", "(3,5)")
        ]
    );
    // A limit of 2 leaves monster 4 in the supply.
    let mut r = r3();
    assert_eq!(r.detect_up_to(2, &mut NoTrace), 2);
    assert_eq!(r.monsters[3].at, Where::Supply);
    // One spawn tile (1, at (1,6)) and it is free: the first detection takes it and the next
    // finds none (a detection's cube blocks it): detection stops.
    let mut r = position(
        "Nightmare,Demon,Wraith",
        &format!(
            "clock die=4 die_card=2 phase=actions\n\
             mech A tile=(1,5) hp=3 max_hp=3\n\
             monster 1 at=map card=1 place=0 alpha=0 tile=(1,1)\n\
             {EMPTY_BOARD}spawns\n......\n......\n......\n......\n......\n1.....\n"
        ),
    );
    assert_eq!(r.detect_up_to(4, &mut NoTrace), 1);
    assert_eq!(detected(&r), [d(2, "Demon", "(1,6)")]);
    assert_eq!(
        (r.monsters[2].at, r.monsters[3].at),
        (Where::Supply, Where::Supply)
    );
}

#[test]
fn a_terrain_aim_counts_the_whole_splash_when_the_attack_also_hits_side_tiles() {
    // A content file may give a terrain-aiming splash attack side tiles too (`aims_at_terrain`
    // needs only `splash`): the side tiles lie within the splash, so the aim is the same. The
    // Alpha Herald stays at (3,3) and aims north 2 at the edge tile (3,1) to splash the mech at
    // (3,2), behind the aimed tile (not one of its side tiles), as in the North-edge case of
    // `the_alpha_herald_splashes_a_mech_from_an_edge_tile_of_each_side`.
    use sololab::games::rift::content::SideHit;
    let mut r = alpha_herald("(3,3)", "(3,2)", &["(3,4)"], 3, "WNES");
    let mut content = r.content.clone();
    let herald = r.monster_cards[0] as usize;
    content.monsters[herald].alpha.attack.sides = SideHit::Damage;
    r.content = Box::leak(Box::new(content));
    let a = r.stats(0).attack;
    assert!(a.splash && a.aims_at_terrain && a.sides == SideHit::Damage);
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,3)".into(), Some((Dir::North, "(3,1)".into())))
    );
}

#[test]
fn with_i4_flipped_the_targets_place_comes_before_the_aims_direction() {
    use sololab::games::rift::switches::rule;
    // CONTENT.md I4. The Demon at (3,3) (2 moves, walks; compass E, S, W, N; die column 3
    // first). From (3,2) it can aim west at mech B on (2,2) or north at mech A on (3,1); no
    // other stop of column 3 is next to a mech. As read, the direction ranks first: west
    // (third on the compass) before north (fourth). With I4 flipped the target's place ranks
    // first: (3,1) lies further east than (2,2), so it aims north. (West is also the option
    // the monster meets first.)
    let lines =
        format!("mech A tile=(3,1) hp=3 max_hp=3\nmech B tile=(2,2) hp=3 max_hp=3\n{EMPTY_BOARD}");
    let mut r = demon("(3,3)", 3, &lines);
    assert_ne!(r.campaign.rules & rule::COMPASS_DIRECTION_FIRST, 0);
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,2)".into(), Some((Dir::West, "(2,2)".into())))
    );
    let mut r = demon("(3,3)", 3, &lines);
    r.campaign.rules &= !rule::COMPASS_DIRECTION_FIRST;
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,2)".into(), Some((Dir::North, "(3,1)".into())))
    );
    // One target, two ways at it, with the compass E, N, W, S: the Wraith at (3,3) (3 moves,
    // flies) can aim south at mech A on (3,4) from where it stands (the option it meets first),
    // or north at it from (3,5). Under either reading the direction comes before the stop:
    // north (second on this compass) before south (fourth), so it flies to (3,5).
    for flipped in [false, true] {
        let mut r = position(
            "Demon,Wraith,Nightmare",
            &format!(
                "clock die=3 die_card=1 compass=ENWS seek=east phase=actions\n\
                 monster 1 at=map card=2 place=0 alpha=0 tile=(3,3) hp=2\n\
                 mech A tile=(3,4) hp=3 max_hp=3\n{EMPTY_BOARD}"
            ),
        );
        if flipped {
            r.campaign.rules &= !rule::COMPASS_DIRECTION_FIRST;
        }
        assert_eq!(
            moved_and_aimed(&mut r),
            ("(3,5)".into(), Some((Dir::North, "(3,4)".into()))),
            "I4 flipped: {flipped}"
        );
    }
    // Case R1 with I4 flipped: of the options of column 4, east at mech A on (5,5) from (4,5),
    // east at the building on (5,3) from (4,3) and north at the building on (4,2) from (4,3),
    // mech A lies furthest along the compass (as far east as (5,3), further south): the same
    // move and aim as read.
    let mut r = r1("", "");
    r.campaign.rules &= !rule::COMPASS_DIRECTION_FIRST;
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(4,5)".into(), Some((Dir::East, "(5,5)".into())))
    );
}

/// `r` with monster card `card`'s normal attack changed by `edit` (a content file may write
/// any of these attacks: `content_file.rs` asks only that `aims_at_terrain` come with
/// `splash`), and monster 1 frozen and aiming from where it stands (I12 flipped), so that only
/// its aims from its own tile are considered.
fn frozen_with_normal_attack(
    mut r: Rift,
    card: usize,
    edit: impl Fn(&mut sololab::games::rift::content::Attack),
) -> Rift {
    let mut content = r.content.clone();
    let kind = r.monster_cards[card - 1] as usize;
    edit(&mut content.monsters[kind].normal.attack);
    r.content = Box::leak(Box::new(content));
    r.monsters[0].status = st::FROZEN;
    r.campaign.rules &= !sololab::games::rift::switches::rule::FROZEN_NO_AIM;
    r
}

#[test]
fn of_aims_alike_in_direction_target_and_stop_the_nearest_is_kept() {
    // A Nightmare whose Dread Bolt (range 2 and more) splashes and may aim at terrain, frozen
    // and aiming from where it stands (I12 flipped), at (3,6); mech A on (3,3), mountains on
    // (3,4) and (3,2). Aiming north it reaches mech A three ways: at the mountain 2 away
    // (splash), at the mech 3 away, at the mountain 4 away (splash): one direction, one
    // target, one stop, so one key. The first met, the nearest, is kept.
    let r = on_card(
        3,
        "(3,6)",
        3,
        &format!(
            "mech A tile=(3,3) hp=3 max_hp=3\n{}",
            terrain_with_mountains(&["(3,4)", "(3,2)"])
        ),
    );
    let mut r = frozen_with_normal_attack(r, 3, |a| {
        a.splash = true;
        a.aims_at_terrain = true;
    });
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(3,6)".into(), Some((Dir::North, "(3,4)".into())))
    );
    assert_eq!(r.monsters[0].aim_dist, 2);
}

#[test]
fn a_self_centred_monster_attack_is_aimed_once_in_the_compasss_first_direction() {
    use sololab::games::rift::content::Shape;
    // A Demon whose attack is centred on itself, splashes and may aim at terrain, frozen and
    // aiming from where it stands (I12 flipped), on the edge tile (1,3) next to mech A on
    // (2,3): it aims at its own tile, once, in the compass's first direction (east).
    let r = demon(
        "(1,3)",
        1,
        &format!("mech A tile=(2,3) hp=3 max_hp=3\n{EMPTY_BOARD}"),
    );
    let mut r = frozen_with_normal_attack(r, 1, |a| {
        a.shape = Shape::SelfTile;
        a.splash = true;
        a.aims_at_terrain = true;
    });
    assert_eq!(
        moved_and_aimed(&mut r),
        ("(1,3)".into(), Some((Dir::East, "(1,3)".into())))
    );
    assert_eq!(r.monsters[0].aim_dist, 0);
}

#[test]
fn a_card_with_two_monsters_is_full_and_detection_goes_on_to_the_next_card_either_way() {
    use sololab::games::rift::switches::rule;
    let d = |i: usize, card: &str, tile: &str| (i, card.to_string(), tile.to_string());
    // Case R3's board with two monsters on the die's card (the Demon's): a card takes at most 2
    // (FAQ Detect and Spawn). Rightward (as read) the Wraith's card is next, then the
    // Nightmare's: monster 3 on the Wraith's card at spawn tile 4 (4,6), monster 4 on the
    // Nightmare's at tile 6 (2,5) (5 holds the mech).
    let full = |rules_off: u32| {
        let mut r = position(
            "Nightmare,Demon,Wraith",
            &format!(
                "clock die=4 die_card=2 phase=actions\n\
                 mech A tile=(1,5) hp=3 max_hp=3\n\
                 monster 1 at=map card=2 place=0 alpha=0 tile=(1,1)\n\
                 monster 2 at=map card=2 place=1 alpha=0 tile=(3,1)\n\
                 {EMPTY_BOARD}spawns\n......\n......\n......\n......\n5678..\n1234..\n"
            ),
        );
        r.campaign.rules &= !rules_off;
        r
    };
    let mut r = full(0);
    assert_eq!(r.detect_up_to(4, &mut NoTrace), 2);
    assert_eq!(
        detected(&r),
        [d(3, "Wraith", "(4,6)"), d(4, "Nightmare", "(2,5)")]
    );
    // Leftward (I1 flipped): the Nightmare's card is next, then the Wraith's.
    let mut r = full(rule::DETECT_RIGHT);
    assert_eq!(r.detect_up_to(4, &mut NoTrace), 2);
    assert_eq!(
        detected(&r),
        [d(3, "Nightmare", "(4,6)"), d(4, "Wraith", "(2,5)")]
    );
}
