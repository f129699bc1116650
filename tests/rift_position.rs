//! The Rift's position format refuses states the game cannot reach, each with the line that
//! breaks the rule (`FILE:LINE: message` in the CLI).

use sololab::Game;
use sololab::games::rift::Rift;

const BOARD: &str = "terrain\n......\n....B.\n......\n...W..\n......\n......\n\
                     spawns\n1.....\n.2....\n......\n......\n......\n......\n";

/// Parses the header, `lines`, then a fixed board; returns (line, message) of the error.
fn err(lines: &str) -> (usize, String) {
    let text = format!("rift-position 1\nmonster_cards Nightmare,Demon,Wraith\n{lines}{BOARD}");
    match Rift::from_position(&text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => (e.line, e.message),
    }
}

fn ok(lines: &str) -> Rift {
    let text = format!("rift-position 1\nmonster_cards Nightmare,Demon,Wraith\n{lines}{BOARD}");
    Rift::from_position(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

const MECH: &str = "mech A tile=(1,3) hp=3 max_hp=3\n";

#[test]
fn a_plain_position_loads() {
    let r = ok(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(2,3)\n"
    ));
    assert_eq!(r.monsters[0].hp, r.stats(0).hp, "hp defaults to full");
}

#[test]
fn the_phase_must_agree_with_the_result() {
    let (line, m) = err(&format!("clock phase=over result=0\n{MECH}"));
    assert_eq!(line, 3);
    assert!(m.contains("phase=over"), "{m}");
    let (line, _) = err(&format!("clock phase=actions result=1\n{MECH}"));
    assert_eq!(line, 3);
}

#[test]
fn the_reward_phase_needs_pending_rewards() {
    let (line, m) = err(&format!("clock phase=reward\n{MECH}"));
    assert_eq!(line, 3);
    assert!(m.contains("pending"), "{m}");
}

#[test]
fn the_campaign_die_stays_on_a_die() {
    let (line, m) = err(&format!("clock phase=actions campaign_die=0\n{MECH}"));
    assert_eq!(line, 3);
    assert!(m.contains("1-6"), "{m}");
    assert_eq!(
        err(&format!("clock phase=actions campaign_die=99\n{MECH}")).0,
        3
    );
}

#[test]
fn monster_hp_and_places_are_checked_on_their_line() {
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(2,3) hp=0\n"
    ));
    assert_eq!((line, m.contains("outside")), (5, true), "{m}");
    let (line, _) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(2,3) hp=99\n"
    ));
    assert_eq!(line, 5);
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(2,3)\nmonster 2 at=map card=1 place=0 alpha=0 tile=(3,3)\n"
    ));
    assert_eq!((line, m.contains("taken")), (6, true), "{m}");
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(2,3)\nmonster 2 at=map card=1 place=1 alpha=0 tile=(3,3)\nmonster 3 at=detected card=1 tile=(1,1)\n"
    ));
    assert_eq!((line, m.contains("2 monsters")), (7, true), "{m}");
}

#[test]
fn walkers_do_not_stand_on_water_but_fliers_may() {
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(4,4)\n"
    ));
    assert_eq!((line, m.contains("water")), (5, true), "{m}");
    ok(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=3 place=0 alpha=0 tile=(4,4)\n"
    ));
}

#[test]
fn units_clash_on_the_later_line() {
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(1,3)\n"
    ));
    assert_eq!(line, 5, "{m}");
    assert!(
        m.contains("line 4"),
        "names the line already holding the tile: {m}"
    );
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}monster 1 at=map card=1 place=0 alpha=0 tile=(5,2)\n"
    ));
    assert_eq!((line, m.contains("building")), (5, true), "{m}");
}

#[test]
fn tokens_keep_to_their_sides_tiles_and_supply() {
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}tokens rock=(3,3) smoke=(3,3)\n"
    ));
    assert_eq!((line, m.contains("rock and smoke")), (5, true), "{m}");
    let (line, _) = err(&format!(
        "clock phase=actions\n{MECH}tokens frozen_buildings=(1,1)\n"
    ));
    assert_eq!(line, 5);
    let (line, m) = err(&format!(
        "clock phase=actions\n{MECH}tokens fire=(1,1)(2,1)(3,1)(4,1)\n"
    ));
    assert_eq!((line, m.contains("supply")), (5, true), "{m}");
}

#[test]
fn a_line_given_twice_is_refused() {
    let (line, m) = err(&format!("clock phase=actions\n{MECH}{MECH}"));
    assert_eq!((line, m.contains("twice")), (5, true), "{m}");
}

#[test]
fn a_game_that_goes_on_needs_a_mech() {
    let (line, m) = err("clock phase=actions\n");
    assert_eq!((line, m.contains("mech")), (3, true), "{m}");
    let (_, m) = err("clock phase=deploy\n");
    assert!(m.contains("needs hp"), "{m}");
}

#[test]
fn a_position_with_a_byte_order_mark_loads() {
    // Was `line 1: unknown line '\u{feff}rift-position'` before the shared line reader.
    let text =
        format!("\u{feff}rift-position 1\nmonster_cards Nightmare,Demon,Wraith\n{MECH}{BOARD}");
    let with_bom = Rift::from_position(&text).unwrap_or_else(|e| panic!("{e}"));
    let without = Rift::from_position(&text['\u{feff}'.len_utf8()..]).unwrap();
    assert_eq!(with_bom, without);
    // Line numbers still count from the first line.
    let e = Rift::from_position(&text.replace("hp=3 max_hp=3", "hp=x max_hp=3")).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (3, "hp=x: not a number"));
}
