//! Property tests (proptest): damaged content files and positions never panic the loaders, and
//! every refusal is one line that says where.

use proptest::prelude::*;
use sololab::games::rift::content::BUILTIN_TOML;
use sololab::games::rift::content_file;
use sololab::games::rift::{Rift, RiftSetup};
use sololab::{Game, Stream, stream_rng};

/// The builtin content with line `drop` removed and `junk` written over line `over`.
fn damage(text: &str, drop: usize, over: usize, junk: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let n = lines.len();
    let (drop, over) = (drop % n, over % n);
    lines
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != drop)
        .map(|(i, l)| {
            if i == over {
                junk.to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn damaged_content_is_parsed_or_refused_in_one_line(
        drop in 0usize..2000,
        over in 0usize..2000,
        junk in "[a-z_ =\\[\\]\"0-9.,{}-]{0,30}",
    ) {
        let text = damage(BUILTIN_TOML, drop, over, &junk);
        if let Err(e) = content_file::parse(&text, "damaged.toml") {
            let msg = e.to_string();
            prop_assert!(!msg.contains('\n'), "one line: {msg}");
            prop_assert!(msg.starts_with("damaged.toml"), "names the file: {msg}");
        }
    }

    #[test]
    fn damaged_positions_are_read_or_refused_at_a_line(
        seed in 0u64..10_000,
        drop in 0usize..100,
        over in 0usize..100,
        junk in "[a-z_ =(),0-9.-]{0,24}",
    ) {
        let r = Rift::new_game(&RiftSetup::default_setup(), &mut stream_rng(seed, 0, Stream::Setup));
        let text = damage(&r.to_position(), drop, over, &junk);
        match Rift::from_position(&text) {
            Ok(back) => {
                // Whatever loads is a state the game can go on from without panicking.
                let mut acts = Vec::new();
                back.legal_actions(&mut acts);
                prop_assert_eq!(acts.is_empty(), back.outcome().is_some());
            }
            Err(e) => {
                prop_assert!(!e.message.contains('\n'), "one line: {}", e.message);
                prop_assert!(e.line <= text.lines().count() + 1, "line {} of {}", e.line, text.lines().count());
            }
        }
    }
}

/// The case proptest found: line 1 of the content made `[""""`, which opens a multi-line
/// string as a table's name, so the "entry" of the error is the rest of the file. The error is
/// still one line, with the name cut short.
#[test]
fn a_table_named_by_a_multi_line_string_is_refused_in_one_short_line() {
    let text = damage(BUILTIN_TOML, 0, 1, "[\"\"\"\"");
    let e = content_file::parse(&text, "damaged.toml")
        .unwrap_err()
        .to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(e.starts_with("damaged.toml:"), "{e}");
    assert!(e.len() < 400, "{} characters: {e}", e.len());
}
