//! Details of the Rift's rules that the rulebook's cases (`tests/rift_cases.rs`) and the golden
//! games leave open, each found by mutation testing (`scripts/mutants.sh`, issue 11;
//! `results/mutants/rift.md` lists which mutant each test kills). Each test sets up a position
//! through the position format (or a content value through the public API) and checks the
//! value the rule gives.

use sololab::Game;
use sololab::games::rift::Rift;
use sololab::games::rift::actions::aims;
use sololab::games::rift::board::parse_coord;
use sololab::games::rift::content::{Attack, Move, Shape, SideHit};

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

/// An attack of `shape` with nothing else to it.
fn plain(shape: Shape) -> Attack {
    Attack {
        name: 0,
        shape,
        damage: 1,
        movement: Move::None,
        status: None,
        immobilize: false,
        sides: SideHit::None,
        splash: false,
        aims_at_terrain: false,
    }
}

/// Every aim `aims` offers for `attack` from `from`, as (direction, distance).
fn aims_of(r: &Rift, attack: &Attack, from: &str) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    aims(r, attack, t(from), r.occupied(), |d, n| out.push((d, n)));
    out
}

#[test]
fn a_self_attack_has_one_aim_and_each_shape_its_own_distances() {
    // Content: `shape = "self"` hits the attacker's own tile: one aim, not one per direction
    // (four copies of one action would weigh it four times in random and search play).
    let r = position(&format!(
        "clock phase=actions\nmech A tile=(6,6) hp=3 max_hp=3\n{EMPTY_BOARD}"
    ));
    assert_eq!(aims_of(&r, &plain(Shape::SelfTile), "(3,3)"), [(0, 0)]);
    // From (2,3): adjacent 1 tile each way; exact2 2 tiles where the map allows (not west);
    // range2plus from 2 to the edge; a line to the edge on an empty board.
    assert_eq!(
        aims_of(&r, &plain(Shape::Adjacent), "(2,3)"),
        [(0, 1), (1, 1), (2, 1), (3, 1)]
    );
    assert_eq!(
        aims_of(&r, &plain(Shape::Exact2), "(2,3)"),
        [(0, 2), (1, 2), (2, 2)]
    );
    assert_eq!(
        aims_of(&r, &plain(Shape::Range2Plus), "(2,3)"),
        [(0, 2), (1, 2), (1, 3), (1, 4), (2, 2), (2, 3)]
    );
    assert_eq!(
        aims_of(&r, &plain(Shape::Line), "(2,3)"),
        [(0, 2), (1, 4), (2, 3), (3, 1)]
    );
}
