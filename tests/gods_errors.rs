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
