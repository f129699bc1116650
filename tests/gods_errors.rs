//! Bad input for I Bury the Gods: each refused with one line naming the flag or the file, the
//! entry and the field, exit status 2, nothing written.

use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_sololab");

fn play(set: &[&str]) -> Output {
    let mut args = vec!["play", "gods", "--policy", "random"];
    for s in set {
        args.push("--set");
        args.push(s);
    }
    Command::new(BIN)
        .args(&args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn refused(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.is_empty(), "nothing is printed on stdout");
    let e = String::from_utf8_lossy(&o.stderr).trim_end().to_string();
    assert_eq!(e.lines().count(), 1, "{e}");
    e
}

#[test]
fn an_allocation_that_is_not_a_permutation_is_refused() {
    let e = refused(&play(&["abilities=strength=3,aim=3,wits=1,dodge=0"]));
    assert_eq!(
        e,
        "sololab: error: --set abilities=strength=3,aim=3,wits=1,dodge=0: axis 'abilities': scores 3,3,1,0 are not a permutation of the allowed scores 3,2,1,0"
    );
    let e = refused(&play(&["abilities=strength=3,aim=2,wits=1"]));
    assert!(
        e.ends_with("axis 'abilities': ability 'dodge' is missing"),
        "{e}"
    );
}

#[test]
fn an_unknown_ability_asset_deck_or_encounter_is_refused() {
    let e = refused(&play(&["abilities=strength=3,agility=2,wits=1,dodge=0"]));
    assert!(
        e.ends_with(
            "axis 'abilities': unknown ability 'agility' (valid: strength, aim, wits, dodge)"
        ),
        "{e}"
    );
    let e = refused(&play(&["assets=wizard"]));
    assert!(e.ends_with("axis 'assets': unknown asset deck 'wizard' (valid: balanced, marksman, brawler, survivor)"), "{e}");
    let e = refused(&play(&["encounter=dragon"]));
    assert!(e.contains("--set encounter=dragon: axis 'encounter': unknown encounter 'dragon' (valid: lone_brute,"), "{e}");
}

fn with_content(tag: &str, find: &str, replace: &str) -> String {
    let text = include_str!("../src/games/gods/content/gods.toml");
    assert!(text.contains(find));
    let path = std::env::temp_dir().join(format!("sololab-gods-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, text.replacen(find, replace, 1)).unwrap();
    let e = refused(&play(&[&format!("content={}", path.display())]));
    let _ = std::fs::remove_file(&path);
    let e = e.replace(&path.display().to_string(), "FILE");
    assert!(
        e.starts_with("sololab: error: --set content=FILE: FILE:"),
        "names the flag and the file with line and column: {e}"
    );
    e
}

#[test]
fn an_obstacle_outside_the_table_is_refused_naming_file_entry_and_field() {
    let e = with_content(
        "obstacle",
        "{ rect = [14.0, 10.0, 18.0, 11.0] }",
        "{ rect = [14.0, 10.0, 26.0, 11.0] }",
    );
    assert!(
        e.ends_with(": encounter 'lone_brute': field 'obstacles[2].rect': [14, 10, 26, 11] is outside the 24x24 inch table"),
        "{e}"
    );
}

#[test]
fn a_patrol_point_inside_an_obstacle_is_refused() {
    let e = with_content(
        "patrol",
        "patrol = [[16.0, 18.0], [16.0, 6.0]]",
        "patrol = [[16.0, 18.0], [11.0, 6.0]]",
    );
    assert!(
        e.ends_with(": encounter 'sentries': field 'fateling[1].patrol[2]': point (11.00,6.00) is inside obstacle 1 (for a base of radius 0.5)"),
        "{e}"
    );
}

#[test]
fn an_unknown_asset_in_a_deck_is_refused() {
    let e = with_content("asset", "\"Precise Strike\" = 8", "\"Precise Stroke\" = 8");
    assert!(
        e.contains(
            ": deck 'brawler': field 'cards.Precise Stroke': unknown asset 'Precise Stroke'"
        ),
        "{e}"
    );
}

/// The builtin content with each `(find, replace)` edit applied once, parsed as `t.toml`.
fn parse_edited(edits: &[(&str, &str)]) -> Result<String, String> {
    let mut text = sololab::games::gods::content::BUILTIN_TOML.to_string();
    for (find, replace) in edits {
        assert!(text.contains(find), "{find}");
        text = text.replacen(find, replace, 1);
    }
    sololab::games::gods::content_file::parse(&text, "t.toml")
        .map(|c| {
            let n = c.wounds.len();
            let a = c.assets.len();
            let o: usize = c.encounters.iter().map(|e| e.obstacles.len()).sum();
            format!("{n} wounds, {a} assets, {o} obstacles")
        })
        .map_err(|e| e.to_string())
}

/// `n` more asset cards after Scavenge, each a copy of Quick Step under its own name.
fn extra_assets(n: usize) -> String {
    let mut s = "name = \"Scavenge\"\neffect = \"scavenge\"\n".to_string();
    for i in 0..n {
        s += &format!("\n[[asset]]\nname = \"Step {i}\"\neffect = \"quick_step\"\n");
    }
    s
}

/// Every numeric limit of the content format holds at its bound and refuses one past it
/// (`src/games/gods/content_file.rs`; the format's header in `content/gods.toml`): a wound card's
/// count defaults to 1; sizes, moves and radii are 0.01 (the table's resolution) to 600 inches; 1 to 8 asset
/// cards; at most 16 wound cards and at least `wounds_to_perish` (10); a defense from -5; at most
/// 12 obstacles an encounter; a rectangle has x0 < x1 and y0 < y1 and lies on the table.
#[test]
fn the_content_formats_limits_hold_at_their_bounds_and_refuse_past_them() {
    // 15 wound cards, 5 assets and 2 + 5 + 5 + 4 + 5 + 6 obstacles as shipped.
    let base = parse_edited(&[]).unwrap();
    assert!(base.starts_with("15 wounds, 5 assets"), "{base}");
    // Twisted Ankle's `count = 2` left out: one card.
    let one = parse_edited(&[("effect = \"move\"\ncount = 2", "effect = \"move\"")]).unwrap();
    assert!(one.starts_with("14 wounds"), "{one}");

    let brute_move = "name = \"Brute\"\nmove = 5.0";
    for (v, ok) in [
        ("600.0", true),
        ("0.01", true),
        ("0.0", false),
        // Under the table's resolution (a hundredth of an inch) a move rounds to nothing.
        ("0.001", false),
        ("0.009", false),
        ("600.5", false),
        ("-1.0", false),
    ] {
        let r = parse_edited(&[(brute_move, &format!("name = \"Brute\"\nmove = {v}"))]);
        assert_eq!(r.is_ok(), ok, "move = {v}: {r:?}");
        if let Err(e) = r {
            assert!(e.contains("fateling 'Brute': field 'move'"), "{e}");
        }
    }

    let scavenge = "name = \"Scavenge\"\neffect = \"scavenge\"\n";
    assert!(
        parse_edited(&[(scavenge, &extra_assets(3))])
            .unwrap()
            .contains("8 assets")
    );
    let e = parse_edited(&[(scavenge, &extra_assets(4))]).unwrap_err();
    assert!(e.ends_with("asset: need 1 to 8 asset cards"), "{e}");

    // Bruise's 5 copies: 6 makes 16 wound cards (the most), 7 makes 17; 1 with Torn Muscle's 2
    // at 1 makes 10 (exactly wounds_to_perish), and with Blurred Vision's at 1 too, 9.
    let bruise = "effect = \"none\"\ncount = 5";
    assert!(
        parse_edited(&[(bruise, "effect = \"none\"\ncount = 6")])
            .unwrap()
            .starts_with("16 wounds")
    );
    for edits in [
        vec![(bruise, "effect = \"none\"\ncount = 7")],
        vec![
            (bruise, "effect = \"none\"\ncount = 1"),
            (
                "effect = \"strength\"\ncount = 2",
                "effect = \"strength\"\ncount = 1",
            ),
            ("effect = \"aim\"\ncount = 2", "effect = \"aim\"\ncount = 1"),
        ],
    ] {
        let e = parse_edited(&edits).unwrap_err();
        assert!(e.contains(": wound: "), "{edits:?}: {e}");
    }
    let ten = parse_edited(&[
        (bruise, "effect = \"none\"\ncount = 1"),
        (
            "effect = \"strength\"\ncount = 2",
            "effect = \"strength\"\ncount = 1",
        ),
    ]);
    assert!(ten.as_ref().unwrap().starts_with("10 wounds"), "{ten:?}");

    // A defense of -5 is the lowest allowed.
    let brute_defense = "attack = 6\ndefense = 7";
    assert!(parse_edited(&[(brute_defense, "attack = 6\ndefense = -5")]).is_ok());
    assert!(parse_edited(&[(brute_defense, "attack = 6\ndefense = -6")]).is_err());

    // lone_brute's two obstacles with 10 more circles: 12, then 13.
    let lone = "obstacles = [{ circle = [7.0, 11.0, 1.5] }, { rect = [14.0, 10.0, 18.0, 11.0] }]";
    let circles = |k: usize| {
        let extra: Vec<String> = (0..k)
            .map(|i| format!("{{ circle = [{}.0, 22.0, 0.5] }}", 2 + 2 * i))
            .collect();
        format!(
            "obstacles = [{{ circle = [7.0, 11.0, 1.5] }}, {{ rect = [14.0, 10.0, 18.0, 11.0] }}, {}]",
            extra.join(", ")
        )
    };
    assert!(parse_edited(&[(lone, &circles(10))]).is_ok());
    let e = parse_edited(&[(lone, &circles(11))]).unwrap_err();
    assert!(
        e.contains("encounter 'lone_brute': field 'obstacles': at most 12 obstacles"),
        "{e}"
    );

    // Rectangles: empty in x or in y, or off the table on the low side, are refused.
    let wall = "{ rect = [14.0, 10.0, 18.0, 11.0] }";
    for bad in [
        "{ rect = [14.0, 10.0, 14.0, 11.0] }",
        "{ rect = [18.0, 10.0, 14.0, 11.0] }",
        "{ rect = [14.0, 10.0, 18.0, 10.0] }",
        "{ rect = [-1.0, 10.0, 18.0, 11.0] }",
        "{ rect = [14.0, -1.0, 18.0, 11.0] }",
    ] {
        let e = parse_edited(&[(wall, bad)]).unwrap_err();
        assert!(
            e.contains("encounter 'lone_brute': field 'obstacles[2].rect'"),
            "{bad}: {e}"
        );
    }
    let e = parse_edited(&[(wall, "{ rect = [14.0, 10.0, 18.0, 25.0] }")]).unwrap_err();
    assert!(e.contains("field 'obstacles[2].rect'"), "{e}");
    // Circles: the whole disc on the table, touching an edge at most.
    let rock = "{ circle = [7.0, 11.0, 1.5] }";
    for (c, ok) in [
        ("[1.0, 11.0, 1.5]", false),
        ("[7.0, 1.0, 1.5]", false),
        ("[23.0, 11.0, 1.5]", false),
        ("[7.0, 23.0, 1.5]", false),
        ("[1.5, 11.0, 1.5]", true),
        ("[7.0, 1.5, 1.5]", true),
        ("[22.5, 11.0, 1.5]", true),
        ("[7.0, 22.5, 1.5]", true),
    ] {
        let r = parse_edited(&[(rock, &format!("{{ circle = {c} }}"))]);
        assert_eq!(r.is_ok(), ok, "{c}: {r:?}");
        if let Err(e) = r {
            assert!(e.contains("field 'obstacles[1].circle'"), "{c}: {e}");
        }
    }
    // Polygons: every corner finite and on the table, edges included.
    for (corners, ok) in [
        ("[[14.0, 10.0], [18.0, 10.0], [18.0, 11.0]]", true),
        ("[[0.0, 0.0], [24.0, 0.0], [24.0, 1.0]]", true),
        ("[[0.0, 23.0], [1.0, 23.0], [1.0, 24.0]]", true),
        ("[[-0.5, 10.0], [18.0, 10.0], [18.0, 11.0]]", false),
        ("[[14.0, -0.5], [18.0, 10.0], [18.0, 11.0]]", false),
        ("[[14.0, 10.0], [24.5, 10.0], [18.0, 11.0]]", false),
        ("[[14.0, 10.0], [18.0, 10.0], [18.0, 24.5]]", false),
        ("[[14.0, 10.0], [nan, 10.0], [18.0, 11.0]]", false),
        ("[[14.0, 10.0], [18.0, 10.0], [18.0, inf]]", false),
    ] {
        let r = parse_edited(&[(wall, &format!("{{ polygon = {corners} }}"))]);
        assert_eq!(r.is_ok(), ok, "{corners}: {r:?}");
        if let Err(e) = r {
            assert!(
                e.contains("field 'obstacles[2].polygon': corner "),
                "{corners}: {e}"
            );
        }
    }
    // Points (her start here): finite, her base (radius 0.5) wholly on the table.
    let start = "scoundrel = [12.0, 2.0]";
    for (at, ok) in [
        ("[0.5, 2.0]", true),
        ("[12.0, 0.5]", true),
        ("[23.5, 2.0]", true),
        ("[12.0, 23.5]", true),
        ("[0.4, 2.0]", false),
        ("[12.0, 0.4]", false),
        ("[23.6, 2.0]", false),
        ("[12.0, 23.6]", false),
        ("[nan, 2.0]", false),
        ("[12.0, inf]", false),
    ] {
        let r = parse_edited(&[(start, &format!("scoundrel = {at}"))]);
        assert_eq!(r.is_ok(), ok, "{at}: {r:?}");
        if let Err(e) = r {
            assert!(
                e.contains("encounter 'lone_brute': field 'scoundrel'"),
                "{at}: {e}"
            );
        }
    }
    // On the table up to its edges (24 x 24).
    for edge in [
        "{ rect = [0.0, 0.0, 1.0, 1.0] }",
        "{ rect = [23.0, 23.0, 24.0, 24.0] }",
    ] {
        assert!(parse_edited(&[(wall, edge)]).is_ok(), "{edge}");
    }
}

/// A position line with a key its kind does not have is refused, and errors name the line
/// (1-based, counting blank and comment lines); a base off the table on any side is refused,
/// one just on it is read.
#[test]
fn a_position_refuses_unknown_keys_and_bases_off_the_table_naming_the_line() {
    use sololab::Game;
    use sololab::games::gods::Gods;
    let c = sololab::games::gods::content::builtin();
    let base = Gods::blank(c, c.encounter_index("lone_brute").unwrap()).to_position();
    // The base with its line starting with `prefix` replaced by `line`.
    let replace_line = |prefix: &str, line: &str| {
        let body: Vec<&str> = base
            .lines()
            .map(|l| if l.starts_with(prefix) { line } else { l })
            .collect();
        body.join("\n")
    };
    // Its `scoundrel` line (line n) replaced, after a comment and a blank line.
    let with = |line: &str| format!("# a comment\n\n{}\n", replace_line("scoundrel ", line));
    let n = 3 + base
        .lines()
        .position(|l| l.starts_with("scoundrel "))
        .unwrap();
    let e = Gods::from_position(&with("scoundrel at=(12.00,2.00) colour=red")).unwrap_err();
    assert_eq!(e.line, n, "{e}");
    assert!(e.message.contains("unknown key 'colour'"), "{e}");
    // lone_brute's table is 24 x 24 and her base's radius 0.5.
    for p in [
        "(0.40,12.00)",
        "(12.00,0.40)",
        "(23.60,12.00)",
        "(12.00,23.60)",
    ] {
        let e = Gods::from_position(&with(&format!("scoundrel at={p}"))).unwrap_err();
        assert_eq!(e.line, n, "{e}");
        assert!(e.message.contains("off the table"), "{p}: {e}");
    }
    // A hundredth of tolerance: 0.49 is on the table, 0.40 is not.
    for p in [
        "(0.50,12.00)",
        "(12.00,0.50)",
        "(23.50,12.00)",
        "(12.00,23.50)",
        "(0.49,12.00)",
        "(12.00,0.49)",
        "(23.51,12.00)",
        "(12.00,23.51)",
    ] {
        assert!(
            Gods::from_position(&with(&format!("scoundrel at={p}"))).is_ok(),
            "{p}"
        );
    }
    // The clock's ranges: round up to 30 (the most rounds), actions and assets up to 25, a
    // result up to the last loss cause; one past each is refused on the clock's line.
    // The base with the `key=value` pairs of `k` set on its line starting with `prefix`.
    let edit = |prefix: &str, k: &str| {
        let body: Vec<String> = base
            .lines()
            .map(|l| {
                if l.starts_with(prefix) {
                    let f: Vec<String> = l
                        .split_whitespace()
                        .map(|w| {
                            let key = w.split('=').next().unwrap_or("");
                            k.split_whitespace()
                                .find(|kv| kv.starts_with(&format!("{key}=")))
                                .unwrap_or(w)
                                .to_string()
                        })
                        .collect();
                    f.join(" ")
                } else {
                    l.to_string()
                }
            })
            .collect();
        Gods::from_position(&body.join("\n"))
    };
    let clock = |k: &str| edit("clock ", k);
    let causes = sololab::games::gods::LOSS_CAUSES.len();
    let last = format!("phase=over result={}", 1 + causes);
    let past = format!("phase=over result={}", 2 + causes);
    for ok in [
        "round=30",
        "actions_left=25",
        "assets_used=25",
        last.as_str(),
    ] {
        assert!(clock(ok).is_ok(), "{ok}: {:?}", clock(ok).err());
    }
    for bad in [
        "round=31",
        "actions_left=26",
        "assets_used=26",
        past.as_str(),
    ] {
        let e = clock(bad).unwrap_err();
        let line = 1 + base.lines().position(|l| l.starts_with("clock ")).unwrap();
        assert_eq!(e.line, line, "{bad}: {e}");
    }
    // A pending test's target is a fateling number 1..=8; a fateling's wounds at most 40 and
    // its next patrol point 1..=the route's length (the Brute's route has 2).
    let line_of = |prefix: &str| 1 + base.lines().position(|l| l.starts_with(prefix)).unwrap();
    for (prefix, ok, bad) in [
        ("pending ", "target=8", "target=9"),
        ("pending ", "target=1", "target=0"),
        ("fateling 1 ", "wounds=40", "wounds=41"),
        ("fateling 1 ", "patrol=2", "patrol=3"),
        ("fateling 1 ", "patrol=1", "patrol=0"),
    ] {
        assert!(
            edit(prefix, ok).is_ok(),
            "{ok}: {:?}",
            edit(prefix, ok).err()
        );
        let e = edit(prefix, bad).unwrap_err();
        assert_eq!(e.line, line_of(prefix), "{bad}: {e}");
    }
    // A whole line replaced: a hand holds at most 40 of a card; at most every wound card
    // (15 here) is drawn.
    let replaced = |prefix: &str, line: &str| Gods::from_position(&replace_line(prefix, line));
    let n_wounds = c.wounds.len();
    for (prefix, ok, bad) in [
        (
            "hand ",
            "hand Rain_Fire=40".to_string(),
            "hand Rain_Fire=41".to_string(),
        ),
        (
            "wounds ",
            format!("wounds drawn={n_wounds} face_up=-"),
            format!("wounds drawn={} face_up=-", n_wounds + 1),
        ),
    ] {
        assert!(
            replaced(prefix, &ok).is_ok(),
            "{ok}: {:?}",
            replaced(prefix, &ok).err()
        );
        let e = replaced(prefix, &bad).unwrap_err();
        assert_eq!(e.line, line_of(prefix), "{bad}: {e}");
    }
}

/// A position's bases stand where the game could have put them: the Scoundrel's and every
/// active fateling's clear of the obstacles and of each other, by the tolerances of an
/// encounter's starting bases (touching is allowed). lone_brute: the Brute (radius 1) starts at
/// (12, 20); obstacle 1 is the circle of radius 1.5 at (7, 11), obstacle 2 the rectangle
/// [14, 10, 18, 11]; the Scoundrel's radius is 0.5.
#[test]
fn a_position_refuses_bases_on_each_other_or_in_an_obstacle() {
    use sololab::Game;
    use sololab::games::gods::Gods;
    let read = |lines: &str| {
        Gods::from_position(&format!("gods-position 1\nencounter lone_brute\n{lines}\n"))
    };
    let brute = |at: &str, state: &str| {
        format!("fateling 1 state={state} at={at} wounds=0 activated=0 patrol=1")
    };
    for (lines, line, want) in [
        (
            "scoundrel at=(12.00,20.00)".to_string(),
            3,
            "the Scoundrel at=(12.00,20.00): the base overlaps fateling 1's at (12.00,20.00) (models stop at base contact)",
        ),
        (
            "scoundrel at=(12.00,18.60)".to_string(),
            3,
            "the Scoundrel at=(12.00,18.60): the base overlaps fateling 1's at (12.00,20.00) (models stop at base contact)",
        ),
        (
            format!(
                "{}\nscoundrel at=(10.00,20.00)",
                brute("(11.00,20.00)", "active")
            ),
            3,
            "fateling 1 at=(11.00,20.00): the base overlaps the Scoundrel's at (10.00,20.00) (models stop at base contact)",
        ),
        (
            "scoundrel at=(7.00,11.00)".to_string(),
            3,
            "the Scoundrel at=(7.00,11.00): the base overlaps obstacle 1 of the encounter (a model ends every move clear of obstacles)",
        ),
        (
            brute("(16.00,11.50)", "active"),
            3,
            "fateling 1 at=(16.00,11.50): the base overlaps obstacle 2 of the encounter (a model ends every move clear of obstacles)",
        ),
    ] {
        let e = read(&lines).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (line, want), "{lines}");
    }
    // Touching is not overlapping; a slain fateling is off the table.
    for lines in [
        "scoundrel at=(12.00,18.50)".to_string(),
        "scoundrel at=(7.00,9.00)".to_string(),
        brute("(16.00,12.00)", "active"),
        format!(
            "{}\nscoundrel at=(12.00,20.00)",
            brute("(12.00,20.00)", "slain")
        ),
    ] {
        assert!(read(&lines).is_ok(), "{lines}: {:?}", read(&lines).err());
    }
}

/// Each encounter's win condition reads as written (`win = slay_all | survive | "slay:NAME" |
/// "reach:OBJECTIVE"`, the content header), and an unknown one is refused.
#[test]
fn each_win_condition_reads_as_written() {
    use sololab::games::gods::content::Win;
    let c = sololab::games::gods::content::builtin();
    let win = |name: &str| c.encounters[c.encounter_index(name).unwrap() as usize].win;
    assert!(matches!(win("lone_brute"), Win::SlayAll));
    assert!(matches!(win("sentries"), Win::Reach(0)));
    let coven = &c.encounters[c.encounter_index("witch_coven").unwrap() as usize];
    let Win::Slay(w) = coven.win else {
        panic!("witch_coven: slay the Witch")
    };
    assert_eq!(
        c.fatelings[coven.fatelings[w as usize].kind as usize].name,
        "Witch"
    );
    let mut text = sololab::games::gods::content::BUILTIN_TOML.to_string();
    text = text.replacen("win = \"slay_all\"", "win = \"survive\"", 1);
    let edited = sololab::games::gods::content_file::parse(&text, "t.toml").unwrap();
    assert!(matches!(edited.encounters[0].win, Win::Survive));
    assert!(matches!(edited.encounters[1].win, Win::SlayAll));
    let text = sololab::games::gods::content::BUILTIN_TOML.replacen(
        "win = \"slay_all\"",
        "win = \"escape\"",
        1,
    );
    let e = sololab::games::gods::content_file::parse(&text, "t.toml").unwrap_err();
    assert!(
        e.to_string()
            .contains("encounter 'lone_brute': field 'win'"),
        "{e}"
    );
}

/// An encounter's counts and starting bases (`content_file.rs`): at most 3 objectives, 1 to 8
/// fatelings, and no two starting bases overlapping (touching is allowed, with a hundredth of
/// tolerance).
#[test]
fn objectives_fatelings_and_starting_bases_hold_their_limits() {
    let relic = "objectives = [{ name = \"Relic\", at = [33.0, 12.0], radius = 1.0 }]";
    let objectives = |k: usize| {
        let v: Vec<String> = (0..k)
            .map(|i| {
                format!(
                    "{{ name = \"O{i}\", at = [{}.0, 20.0], radius = 1.0 }}",
                    4 + 4 * i
                )
            })
            .collect();
        format!(
            "objectives = [{{ name = \"Relic\", at = [33.0, 12.0], radius = 1.0 }}, {}]",
            v.join(", ")
        )
    };
    let r = parse_edited(&[(relic, &objectives(2))]);
    assert!(r.is_ok(), "{r:?}");
    // An objective's centre lies on the 36x24 table as written: a negative or too large
    // coordinate is refused, not clamped to the edge by the rounding to hundredths.
    for (at, ok) in [
        ("[0.0, 12.0]", true),
        ("[36.0, 24.0]", true),
        ("[-50.0, 12.0]", false),
        ("[-0.01, 12.0]", false),
        ("[33.0, -1e300]", false),
        ("[36.01, 12.0]", false),
        ("[33.0, 1e9]", false),
    ] {
        let moved = relic.replace("[33.0, 12.0]", at);
        let r = parse_edited(&[(relic, &moved)]);
        assert_eq!(r.is_ok(), ok, "at = {at}: {r:?}");
        if let Err(e) = r {
            assert!(
                e.contains("field 'objectives[1].at'") && e.contains("off the 36x24 inch table"),
                "{e}"
            );
        }
    }
    let e = parse_edited(&[(relic, &objectives(3))]).unwrap_err();
    assert!(
        e.contains("encounter 'sentries': field 'objectives': at most 3 objectives"),
        "{e}"
    );

    // wolf_pack's 3 wolves (base radius 0.6) and k cubs in a row at y = 6.
    let wolf1 = "name = \"Wolf 1\"\nat = [10.0, 31.0]\n";
    let cubs = |k: usize| {
        let mut s = wolf1.to_string();
        for i in 0..k {
            s += &format!(
                "\n[[encounter.fateling]]\nkind = \"Wolf\"\nname = \"Cub {i}\"\nat = [{}.0, 6.0]\n",
                4 + 4 * i
            );
        }
        s
    };
    assert!(parse_edited(&[(wolf1, &cubs(5))]).is_ok());
    let e = parse_edited(&[(wolf1, &cubs(6))]).unwrap_err();
    assert!(
        e.contains("encounter 'wolf_pack': field 'fateling': need 1 to 8 fatelings"),
        "{e}"
    );

    // Wolf 2 moved next to Wolf 1 (10, 31): touching at 1.2 inches between centres, overlapping
    // at 1.1.
    let wolf2 = "name = \"Wolf 2\"\nat = [18.0, 33.0]";
    assert!(parse_edited(&[(wolf2, "name = \"Wolf 2\"\nat = [11.2, 31.0]")]).is_ok());
    let e = parse_edited(&[(wolf2, "name = \"Wolf 2\"\nat = [11.1, 31.0]")]).unwrap_err();
    assert!(
        e.contains("field 'fateling[2].at': its base overlaps another model's"),
        "{e}"
    );
}

/// The tolerances and exemptions of an encounter's placements (`content_file.rs`): a base may
/// touch an obstacle (the inside test grows it by the radius less a hundredth), two bases may
/// meet at exactly the overlap tolerance, a reserve fateling's base (it enters when summoned)
/// is exempt from the overlap test both ways, a patrol has at most 8 points, and a curse's
/// target is in -5..=15.
#[test]
fn placements_hold_their_tolerances_reserves_patrols_and_curse_targets() {
    // wolf_pack's rect [4, 22, 9, 24]: Wolf 1 (radius 0.6) touching its top edge, then 0.02
    // inch inside it.
    let wolf1 = "name = \"Wolf 1\"\nat = [10.0, 31.0]";
    assert!(parse_edited(&[(wolf1, "name = \"Wolf 1\"\nat = [6.0, 24.6]")]).is_ok());
    let e = parse_edited(&[(wolf1, "name = \"Wolf 1\"\nat = [6.0, 24.58]")]).unwrap_err();
    assert!(
        e.contains("field 'fateling[1].at': point (6.00,24.58) is inside obstacle 4"),
        "{e}"
    );

    // Two wolves (0.6 + 0.6 less the 0.01 tolerance): at x = 1.00 and 2.19 their centres are
    // exactly the tolerance apart in f32 (1.19000006 both ways), which is allowed.
    let tolerance = 0.6f32 + 0.6 - 0.01;
    let gap = (2.19f32 - 1.0f32).abs();
    assert_eq!(
        gap.to_bits(),
        tolerance.to_bits(),
        "the case needs an exact tie"
    );
    let wolf2 = "name = \"Wolf 2\"\nat = [18.0, 33.0]";
    let at = |x: &str| format!("name = \"Wolf 2\"\nat = [{x}, 31.0]");
    let edits = |x: &str| {
        vec![
            (wolf1, "name = \"Wolf 1\"\nat = [1.0, 31.0]".to_string()),
            (wolf2, at(x)),
        ]
    };
    let parse = |x: &str| {
        let e = edits(x);
        let e: Vec<(&str, &str)> = e.iter().map(|(f, r)| (*f, r.as_str())).collect();
        parse_edited(&e)
    };
    assert!(parse("2.19").is_ok(), "{:?}", parse("2.19"));
    let e = parse("2.18").unwrap_err();
    assert!(
        e.contains("field 'fateling[2].at': its base overlaps another model's"),
        "{e}"
    );

    // witch_coven: Ghoul 1 (a reserve) on the Witch's own spot, and an eighth fateling (not a
    // reserve) on Ghoul 2's.
    let ghoul1 = "name = \"Ghoul 1\"\nat = [18.0, 33.0]";
    let on_witch = "name = \"Ghoul 1\"\nat = [24.0, 31.0]";
    assert!(parse_edited(&[(ghoul1, on_witch)]).is_ok());
    let ghoul2 = "name = \"Ghoul 2\"\nat = [30.0, 33.0]\nreserve = true\n";
    let eighth = format!(
        "{ghoul2}\n[[encounter.fateling]]\nkind = \"Archer\"\nname = \"Archer 3\"\nat = [30.0, 33.0]\n"
    );
    assert!(parse_edited(&[(ghoul2, &eighth)]).is_ok());
    // Without the reserve mark the same placements overlap.
    let e = parse_edited(&[
        (ghoul1, on_witch),
        ("at = [24.0, 31.0]\nreserve = true", "at = [24.0, 31.0]"),
    ])
    .unwrap_err();
    assert!(
        e.contains("field 'fateling[6].at': its base overlaps another model's"),
        "{e}"
    );

    // Guard 1's patrol of 2 points grown to 8 (allowed) and 9.
    let patrol = "patrol = [[14.0, 28.0], [20.0, 28.0]]";
    let points = |k: usize| {
        let v: Vec<&str> = (0..k)
            .map(|i| {
                if i % 2 == 0 {
                    "[14.0, 28.0]"
                } else {
                    "[20.0, 28.0]"
                }
            })
            .collect();
        format!("patrol = [{}]", v.join(", "))
    };
    assert!(parse_edited(&[(patrol, &points(8))]).is_ok());
    let e = parse_edited(&[(patrol, &points(9))]).unwrap_err();
    assert!(
        e.contains("encounter 'witch_coven': field 'fateling[2].patrol': at most 8 patrol points"),
        "{e}"
    );

    // The Witch's curse target at -5 (allowed), -6 and 16.
    assert!(parse_edited(&[("target = 6", "target = -5")]).is_ok());
    for bad in ["-6", "16"] {
        let e = parse_edited(&[("target = 6", &format!("target = {bad}"))]).unwrap_err();
        assert!(
            e.contains(&format!("field 'event[1].target': {bad} is not in -5..=15")),
            "{e}"
        );
    }
}

/// The position reader's cross-field checks (`position.rs`): a face-up wound must be one of the
/// cards drawn (1-based, so 0 is refused too); phase return needs a card in hand (and is read
/// with one); phase reroll needs the re-roll card in hand and both dice in 1..=10.
#[test]
fn a_position_checks_face_up_wounds_the_return_phase_and_the_reroll_phase() {
    use sololab::Game;
    use sololab::games::gods::Gods;
    let g = Gods::new_game(
        &Gods::resolve_setup(&Default::default()).unwrap(),
        &mut sololab::stream_rng(1, 0, sololab::Stream::Setup),
    );
    let base = g.to_position();
    assert!(
        base.contains("hand Rain_Fire=1,Quick_Step=1,Scavenge=1\n"),
        "{base}"
    );
    let edit = |edits: &[(&str, &str)]| {
        let mut t = base.clone();
        for (from, to) in edits {
            assert!(t.contains(from), "{from}");
            t = t.replacen(from, to, 1);
        }
        Gods::from_position(&t).map_err(|e| e.to_string())
    };
    assert!(edit(&[("wounds drawn=0 face_up=-", "wounds drawn=2 face_up=1,2")]).is_ok());
    for bad in ["0", "3"] {
        let e = edit(&[(
            "wounds drawn=0 face_up=-",
            &format!("wounds drawn=2 face_up={bad}"),
        )])
        .unwrap_err();
        assert!(e.contains("face_up"), "{bad}: {e}");
    }
    // Return: with a card in hand it reads; with none it is refused.
    let ret = ("phase=scoundrel", "phase=return");
    assert!(edit(&[ret]).is_ok(), "{:?}", edit(&[ret]));
    let e = edit(&[ret, ("hand Rain_Fire=1,Quick_Step=1,Scavenge=1", "hand -")]).unwrap_err();
    assert!(e.contains("phase return needs a card in hand"), "{e}");
    // Re-roll of a shot: Rain Fire in hand and dice 3 and 4 read; a die of 0, or no Rain Fire,
    // is refused.
    let reroll = ("phase=scoundrel", "phase=reroll");
    let shot = "pending shoot=1 target=1 number=6 dice=3,4";
    let pending = "pending shoot=0 target=1 number=0 dice=0,0";
    let r = edit(&[reroll, (pending, shot)]);
    assert!(r.is_ok(), "{r:?}");
    for edits in [
        vec![
            reroll,
            (pending, "pending shoot=1 target=1 number=6 dice=0,4"),
        ],
        vec![
            reroll,
            (pending, shot),
            (
                "hand Rain_Fire=1,Quick_Step=1,Scavenge=1",
                "hand Quick_Step=1,Scavenge=1",
            ),
        ],
    ] {
        let e = edit(&edits).unwrap_err();
        assert!(
            e.contains("phase reroll needs the re-roll card in hand and two dice 1..=10"),
            "{e}"
        );
    }
}
