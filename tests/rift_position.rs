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

// Setup draws two different map cards, three different monster cards and two different mechs
// and pilots (one card of each in the box), so a position naming one twice is unreachable.

#[test]
fn a_monster_card_named_twice_is_refused() {
    let text = format!("rift-position 1\nmonster_cards Demon,Demon,Wraith\n{MECH}{BOARD}");
    let e = Rift::from_position(&text).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(
        e.message
            .contains("monster_cards: Demon named twice (a game draws three different"),
        "{e}"
    );
}

#[test]
fn a_map_card_named_twice_is_refused() {
    let (line, m) = err(&format!(
        "clock phase=actions\nmaps Acid_Flats,Acid_Flats\n{MECH}"
    ));
    assert_eq!(line, 4, "{m}");
    assert!(
        m.contains("maps: Acid_Flats named twice (a game draws two different map cards)"),
        "{m}"
    );
}

/// The campaign's fixed cards of the games to come are card numbers of the content: one out of
/// range (it panicked when the next game began) or named twice is refused at its line.
#[test]
fn fixed_campaign_cards_out_of_range_or_named_twice_are_refused() {
    for (value, says) in [
        (
            "fixed_maps=200,-",
            "fixed_maps: 200 is not a map card (0..6, or - for drawn)",
        ),
        ("fixed_maps=3,3", "fixed_maps: map card 3 named twice"),
        (
            "fixed_monsters=-,6,-",
            "fixed_monsters: 6 is not a monster card (0..6, or - for drawn)",
        ),
        (
            "fixed_monsters=1,-,1",
            "fixed_monsters: monster card 1 named twice",
        ),
    ] {
        let (line, m) = err(&format!(
            "clock phase=actions\ncampaign on=1 {value}\n{MECH}"
        ));
        assert_eq!(line, 4, "{m}");
        assert!(m.contains(says), "{value}: {m}");
    }
    let r = ok(&format!(
        "clock phase=actions\ncampaign on=1 fixed_maps=0,- fixed_monsters=-,2,5\n{MECH}"
    ));
    assert_eq!(r.campaign.fixed_maps, [0, u8::MAX]);
    assert_eq!(r.campaign.fixed_monsters, [u8::MAX, 2, 5]);
}

#[test]
fn two_mechs_with_one_mech_card_are_refused() {
    let a = "mech A card=Wukong pilot=Sun_Li tile=(1,3) hp=3\n";
    let b = "mech B card=Wukong pilot=Marta_Kell tile=(2,3) hp=3\n";
    // At the later line, in either order.
    let (line, m) = err(&format!("clock phase=actions\n{a}{b}"));
    assert_eq!(line, 5, "{m}");
    assert!(
        m.contains("mech B: card=Wukong is mech A's too, on line 4"),
        "{m}"
    );
    assert!(m.contains("two different mechs"), "{m}");
    let (line, m) = err(&format!("clock phase=actions\n{b}{a}"));
    assert_eq!(line, 5, "{m}");
    assert!(
        m.contains("mech A: card=Wukong is mech B's too, on line 4"),
        "{m}"
    );
}

/// Mech A's and mech B's (card, pilot) names in `r`.
fn crews(r: &Rift) -> [(String, String); 2] {
    let c = r.content;
    r.mechs.map(|m| {
        (
            c.mechs[m.card as usize].name.clone(),
            c.pilots[m.pilot as usize].name.clone(),
        )
    })
}

#[test]
fn naming_one_mechs_card_or_pilot_moves_the_other_mechs_default_off_it() {
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    // The defaults when neither mech names its card or pilot (the default setup's seed-0 deal).
    let d = ok("clock phase=actions\nmech A tile=(1,3) hp=1\nmech B tile=(2,3) hp=1\n");
    assert_eq!(
        crews(&d),
        [pair("Starfall", "Ivo Rask"), pair("Mirage", "Rhea Moss")]
    );
    // Mech A names mech B's default card and pilot: B takes the content's first ones A does not
    // name (Wukong and Sun Li), on either order of the lines, and with no mech B line at all.
    let a = "mech A card=Mirage pilot=Rhea_Moss tile=(1,3) hp=1\n";
    let b = "mech B tile=(2,3) hp=1\n";
    let moved = [pair("Mirage", "Rhea Moss"), pair("Wukong", "Sun Li")];
    assert_eq!(crews(&ok(&format!("clock phase=actions\n{a}{b}"))), moved);
    assert_eq!(crews(&ok(&format!("clock phase=actions\n{b}{a}"))), moved);
    assert_eq!(crews(&ok(&format!("clock phase=actions\n{a}"))), moved);
    // The same the other way round, and for the pilot alone (the card's default stays).
    assert_eq!(
        crews(&ok("clock phase=actions\nmech A tile=(1,3) hp=1\n\
                   mech B card=Starfall tile=(2,3) hp=1\n")),
        [pair("Wukong", "Ivo Rask"), pair("Starfall", "Rhea Moss")]
    );
    assert_eq!(
        crews(&ok(
            "clock phase=actions\nmech A pilot=Rhea_Moss tile=(1,3) hp=1\n\
                   mech B tile=(2,3) hp=1\n"
        )),
        [pair("Starfall", "Rhea Moss"), pair("Mirage", "Sun Li")]
    );
    // A default that clashes with no name is kept.
    assert_eq!(
        crews(&ok(
            "clock phase=actions\nmech A card=Atlas pilot=Sun_Li tile=(1,3) hp=1\n\
                   mech B tile=(2,3) hp=1\n"
        )),
        [pair("Atlas", "Sun Li"), pair("Mirage", "Rhea Moss")]
    );
    // Naming one card for both mechs is still refused, at the later line.
    let (line, m) = err(&format!(
        "clock phase=actions\n{a}mech B card=Mirage tile=(2,3) hp=1\n"
    ));
    assert_eq!(line, 5, "{m}");
    assert!(
        m.contains("mech B: card=Mirage is mech A's too, on line 4"),
        "{m}"
    );
}

#[test]
fn two_mechs_with_one_pilot_are_refused() {
    let (line, m) = err("clock phase=actions\n\
         mech A card=Wukong pilot=Sun_Li tile=(1,3) hp=3\n\
         mech B card=Atlas pilot=Sun_Li tile=(2,3) hp=3\n");
    assert_eq!(line, 5, "{m}");
    assert!(
        m.contains("mech B: pilot=Sun_Li is mech A's too, on line 4"),
        "{m}"
    );
    assert!(m.contains("two different pilots"), "{m}");
}

#[test]
fn different_cards_and_pilots_still_load() {
    let r = ok("clock phase=actions\nmaps Acid_Flats,Launch_Site\n\
                mech A card=Wukong pilot=Marta_Kell tile=(1,3) hp=3\n\
                mech B card=Atlas pilot=Sun_Li tile=(2,3) hp=4\n");
    let c = r.content;
    let names = |i: usize| {
        let m = r.mechs[i];
        (
            c.mechs[m.card as usize].name.as_str(),
            c.pilots[m.pilot as usize].name.as_str(),
        )
    };
    assert_eq!(names(0), ("Wukong", "Marta Kell"));
    assert_eq!(names(1), ("Atlas", "Sun Li"));
    assert_eq!(
        [
            &c.maps[r.maps[0] as usize].name,
            &c.maps[r.maps[1] as usize].name
        ],
        ["Acid Flats", "Launch Site"]
    );
    // The example position of tests/positions still loads, and so does a written one.
    let r1 = Rift::from_position(include_str!("positions/r1-compass.pos")).unwrap();
    assert_eq!(Rift::from_position(&r1.to_position()).unwrap(), r1);
}
