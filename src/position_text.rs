//! Reading any game's position text (the FEN-like format behind `Game::to_position` and
//! `Game::from_position`): the lines, their 1-based numbers, `key rest` and `key=value` words,
//! numbers, flags and names with spaces, each mistake a [`PositionError`] at its line.
//!
//! The shared shape of a position file: one item per line, `KEY REST`; `#` starts a comment;
//! blank lines are skipped; a UTF-8 byte-order mark at the start is ignored; a block (a grid)
//! may take the raw lines after its key line ([`PositionLines::raw_line`]). Names with spaces
//! are written with underscores ([`name_word`], [`word_name`]). What the keys mean is each
//! game's own (`src/games/<game>/position.rs`).

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::game::{Game, PositionError};

/// A [`PositionError`] at 1-based line `line` (0 when it is not tied to a line).
pub fn error(line: usize, message: impl Into<String>) -> PositionError {
    PositionError {
        line,
        message: message.into(),
    }
}

/// One line of a position: its 1-based number and its text (comment removed and trimmed for
/// the lines of [`PositionLines`]' iterator; trimmed only for [`PositionLines::raw_line`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PositionLine<'a> {
    /// 1-based line number in the whole text.
    pub number: usize,
    /// The text.
    pub text: &'a str,
}

impl<'a> PositionLine<'a> {
    /// The first word (empty for an empty line).
    pub fn key(&self) -> &'a str {
        self.text.split_whitespace().next().unwrap_or("")
    }

    /// What follows the first word, trimmed (empty when nothing does).
    pub fn rest(&self) -> &'a str {
        let t = self.text.trim_start();
        t.find(char::is_whitespace).map_or("", |i| t[i..].trim())
    }

    /// The words (split at whitespace), the key first.
    pub fn words(&self) -> Vec<&'a str> {
        self.text.split_whitespace().collect()
    }

    /// A [`PositionError`] at this line.
    pub fn error(&self, message: impl Into<String>) -> PositionError {
        error(self.number, message)
    }
}

/// The lines of a position text. As an iterator it yields the lines that hold something, with
/// comments (from `#`) removed and whitespace trimmed; [`raw_line`](Self::raw_line) takes the
/// next line as it is, for the rows of a block.
///
/// # Examples
/// ```
/// use sololab::position_text::PositionLines;
/// let mut lines = PositionLines::new("\u{feff}game-position 1\n\n# a comment\nturn 3 # now\n");
/// let first = lines.next().unwrap();
/// assert_eq!((first.number, first.key(), first.rest()), (1, "game-position", "1"));
/// let turn = lines.next().unwrap();
/// assert_eq!((turn.number, turn.text), (4, "turn 3"));
/// assert_eq!(lines.next(), None);
/// ```
#[derive(Clone, Debug)]
pub struct PositionLines<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> PositionLines<'a> {
    /// The lines of `text`; a UTF-8 byte-order mark at its start is dropped.
    pub fn new(text: &'a str) -> PositionLines<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        PositionLines {
            lines: text.lines().enumerate(),
        }
    }

    /// The next line as it is (trimmed, comments kept, even when empty); `None` at the end.
    pub fn raw_line(&mut self) -> Option<PositionLine<'a>> {
        self.lines.next().map(|(i, l)| PositionLine {
            number: i + 1,
            text: l.trim(),
        })
    }
}

impl<'a> Iterator for PositionLines<'a> {
    type Item = PositionLine<'a>;

    fn next(&mut self) -> Option<PositionLine<'a>> {
        for (i, l) in self.lines.by_ref() {
            let text = l.split('#').next().unwrap_or("").trim();
            if !text.is_empty() {
                return Some(PositionLine {
                    number: i + 1,
                    text,
                });
            }
        }
        None
    }
}

/// Checks that the first line holding something is `GAME-position 1` and returns its 1-based
/// number. Every game's position reader calls it first, so a wrong or missing header reads the
/// same in every game.
///
/// # Errors
/// `empty position` (line 0) when no line holds anything; at the first line: `unsupported
/// version 'V' (expected 'GAME-position 1')`, `a OTHER position, not a GAME one` when it is
/// another game's header, or `a GAME position starts with 'GAME-position 1', found 'LINE'`.
///
/// # Examples
/// ```
/// use sololab::position_text::header;
/// assert_eq!(header("# made by hand\nrift-position 1\nturn 2\n", "rift"), Ok(2));
/// assert!(header("gods-position 1\n", "rift").unwrap_err().message.contains("a gods position"));
/// ```
pub fn header(text: &str, game: &str) -> Result<usize, PositionError> {
    let Some(first) = PositionLines::new(text).next() else {
        return Err(error(0, "empty position"));
    };
    let expected = format!("{game}-position 1");
    let words = first.words();
    match (first.key().strip_suffix("-position"), &words[1..]) {
        (Some(g), ["1"]) if g == game => Ok(first.number),
        (Some(g), v) if g == game => Err(first.error(format!(
            "unsupported version '{}' (expected '{expected}')",
            v.join(" ")
        ))),
        (Some(other), _) if !other.is_empty() => Err(first.error(format!(
            "a {other} position, not a {game} one (expected '{expected}')"
        ))),
        _ => Err(first.error(format!(
            "a {game} position starts with '{expected}', found '{}'",
            first.text
        ))),
    }
}

/// Reads `key=value` words into a map, refusing keys not in `allowed`.
///
/// # Errors
/// At line `line`: `expected key=value, got 'WORD'`, or `unknown key 'K' (valid: ...)`.
pub fn pairs<'a>(
    line: usize,
    words: &[&'a str],
    allowed: &[&str],
) -> Result<BTreeMap<&'a str, &'a str>, PositionError> {
    let mut m = BTreeMap::new();
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| error(line, format!("expected key=value, got '{w}'")))?;
        if !allowed.contains(&k) {
            return Err(error(
                line,
                format!("unknown key '{k}' (valid: {})", allowed.join(", ")),
            ));
        }
        m.insert(k, v);
    }
    Ok(m)
}

/// Reads the number `value` of `key`.
///
/// # Errors
/// At line `line`: `KEY=VALUE: not a number`, `KEY=VALUE: not a whole number` (`1.5`), or
/// `KEY=VALUE: out of range for KEY` for a whole number that does not fit `T` (too large, or
/// negative where the field is not). For fields of whole numbers (every position field).
pub fn number<T: FromStr>(line: usize, key: &str, value: &str) -> Result<T, PositionError> {
    value.parse().map_err(|_| {
        let whole = value.parse::<i128>().is_ok()
            || value
                .strip_prefix('-')
                .unwrap_or(value)
                .bytes()
                .all(|b| b.is_ascii_digit())
                && !value.trim_start_matches('-').is_empty();
        let why = if whole {
            format!("out of range for {key}")
        } else if value.parse::<f64>().is_ok_and(f64::is_finite) {
            "not a whole number".to_string()
        } else {
            "not a number".to_string()
        };
        error(line, format!("{key}={value}: {why}"))
    })
}

/// Reads the flag `value` of `key`: `0`/`false` or `1`/`true`.
///
/// # Errors
/// At line `line`: `KEY=VALUE: expected 0 or 1`.
pub fn flag(line: usize, key: &str, value: &str) -> Result<bool, PositionError> {
    match value {
        "0" | "false" => Ok(false),
        "1" | "true" => Ok(true),
        _ => Err(error(line, format!("{key}={value}: expected 0 or 1"))),
    }
}

/// Checks that a position's phase and result agree, as every game keeps them: `phase=over` goes
/// with a result other than 0 (won, or lost by a cause), and only then. `line` is where the
/// phase or result is written (0 when neither is).
///
/// # Errors
/// At `line`: `phase=over goes with a result other than 0, and only then`.
///
/// # Examples
/// ```
/// use sololab::position_text::over_with_result;
/// assert!(over_with_result(3, true, 1).is_ok());
/// assert!(over_with_result(3, false, 0).is_ok());
/// assert_eq!(over_with_result(3, true, 0).unwrap_err().line, 3);
/// ```
pub fn over_with_result(line: usize, over: bool, result: u8) -> Result<(), PositionError> {
    if over == (result != 0) {
        Ok(())
    } else {
        Err(error(
            line,
            "phase=over goes with a result other than 0, and only then",
        ))
    }
}

/// Reads a position to play from (`sololab play --position`): [`Game::from_position`], then
/// the check every game shares, that a game not over leaves the player a legal action. A
/// position of a finished game (a result other than 0) is read as it is: playing it prints
/// the state and its outcome, with no decision. Each game's reader checks that what its phase
/// waits for exists (an index in range, a piece that is there), so the legal actions can be
/// listed at all; this check catches what is left, a state the rules never stop in for the
/// player (an enemies' turn in progress, say).
///
/// # Errors
/// The game's [`PositionError`], or (line 0) `the position leaves no legal action, and the
/// game is not over`.
pub fn playable<G: Game>(text: &str) -> Result<G, PositionError> {
    let g = G::from_position(text)?;
    if g.outcome().is_none() {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        if legal.is_empty() {
            return Err(error(
                0,
                "the position leaves no legal action, and the game is not over",
            ));
        }
    }
    Ok(g)
}

/// A name as one word of a position (`Sun Li` → `Sun_Li`).
pub fn name_word(name: &str) -> String {
    name.replace(' ', "_")
}

/// The name a word of a position stands for (`Sun_Li` → `Sun Li`).
pub fn word_name(word: &str) -> String {
    word.replace('_', " ")
}

/// Declares a game's `#[repr(u8)]` enum whose values have a word in the position (or
/// content) format, and the lookups every such enum needs, once: `ALL` (every value in
/// discriminant order), `name(self)` (its word), `from_name(word)` (the value of a word, `None`
/// for another) and `names()` (the words, comma-separated, for messages). Each variant is
/// written `Variant = discriminant => "word",` under its own docs; the enum derives `Copy`,
/// `Clone`, `Debug`, `PartialEq`, `Eq` and `Hash`.
///
/// ```ignore
/// crate::position_text::named_enum! {
///     /// Where the enemies' turn is.
///     pub enum Stage {
///         /// Monsters move.
///         Move = 0 => "move",
///         /// The enemies' turn is over.
///         Done = 1 => "done",
///     }
/// }
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $value:literal => $word:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant = $value, )+
        }

        impl $name {
            /// Every value, in the order of the discriminants.
            pub const ALL: [$name; [$($word),+].len()] = [$($name::$variant),+];
            /// The value's word in the position and content formats.
            pub const fn name(self) -> &'static str {
                match self {
                    $( $name::$variant => $word, )+
                }
            }
            /// The value whose word is `word`; `None` for any other text.
            pub fn from_name(word: &str) -> Option<$name> {
                $name::ALL.into_iter().find(|v| v.name() == word)
            }
            /// Every value's word in [`ALL`](Self::ALL)'s order, comma-separated (for messages).
            pub fn names() -> String {
                $name::ALL.map($name::name).join(", ")
            }
        }
    };
}
pub(crate) use named_enum;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every [`named_enum!`] enum: `ALL` in discriminant order, each word read back to its
    /// value, words distinct, another word refused.
    #[test]
    fn named_enums_read_back_every_word() {
        fn check<T: Copy + PartialEq + std::fmt::Debug>(
            all: &[T],
            code: impl Fn(T) -> u8,
            name: impl Fn(T) -> &'static str,
            from: impl Fn(&str) -> Option<T>,
            names: String,
        ) {
            for (i, &v) in all.iter().enumerate() {
                assert_eq!(usize::from(code(v)), i, "{v:?}");
                assert_eq!(from(name(v)), Some(v), "{v:?}");
            }
            let words: Vec<&str> = all.iter().map(|&v| name(v)).collect();
            assert_eq!(names, words.join(", "));
            let mut sorted = words.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), words.len(), "{words:?}");
            assert_eq!(from("no such word"), None);
        }
        use crate::games::buried::state as b;
        use crate::games::rift::{content as rc, state as rs};
        check(
            &b::Phase::ALL,
            |v| v as u8,
            b::Phase::name,
            b::Phase::from_name,
            b::Phase::names(),
        );
        check(
            &b::Stage::ALL,
            |v| v as u8,
            b::Stage::name,
            b::Stage::from_name,
            b::Stage::names(),
        );
        check(
            &rs::Phase::ALL,
            |v| v as u8,
            rs::Phase::name,
            rs::Phase::from_name,
            rs::Phase::names(),
        );
        check(
            &rs::Step::ALL,
            |v| v as u8,
            rs::Step::name,
            rs::Step::from_name,
            rs::Step::names(),
        );
        check(
            &rc::Status::ALL,
            |v| v as u8,
            rc::Status::name,
            rc::Status::from_name,
            rc::Status::names(),
        );
        assert_eq!(
            b::Stage::names(),
            "move, deploy, attack, boss_move, boss_attack, done"
        );
        assert_eq!(rs::Phase::from_name("reward"), Some(rs::Phase::Reward));
    }

    #[test]
    fn lines_skip_blanks_and_comments_and_keep_their_numbers() {
        let text = "\u{feff}head 1\n   \n# only a comment\n  turn   3  # the turn\nend\n";
        let got: Vec<(usize, &str, &str)> = PositionLines::new(text)
            .map(|l| (l.number, l.key(), l.rest()))
            .collect();
        assert_eq!(got, [(1, "head", "1"), (4, "turn", "3"), (5, "end", "")]);
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_key() {
        let first = PositionLines::new("\u{feff}rift-position 1\n")
            .next()
            .unwrap();
        assert_eq!(first.key(), "rift-position");
        let first = PositionLines::new("rift-position 1\r\nx 2\r\n")
            .nth(1)
            .unwrap();
        assert_eq!((first.number, first.text), (2, "x 2"));
    }

    #[test]
    fn raw_lines_take_block_rows_as_they_are() {
        let mut lines = PositionLines::new("grid\n.#.\n\nnext\n");
        assert_eq!(lines.next().map(|l| l.key()), Some("grid"));
        assert_eq!(
            lines.raw_line().map(|l| (l.number, l.text)),
            Some((2, ".#."))
        );
        assert_eq!(lines.raw_line().map(|l| (l.number, l.text)), Some((3, "")));
        assert_eq!(lines.next().map(|l| (l.number, l.key())), Some((4, "next")));
        assert_eq!(lines.raw_line(), None);
    }

    #[test]
    fn the_header_is_the_first_line_and_names_the_game() {
        assert_eq!(
            header("\u{feff}\n\nburied-position 1 # v1\n", "buried"),
            Ok(3)
        );
        let cases = [
            ("", "buried", 0, "empty position"),
            ("# only a comment\n", "gods", 0, "empty position"),
            (
                "\nrift-position 2\n",
                "rift",
                2,
                "unsupported version '2' (expected 'rift-position 1')",
            ),
            (
                "rift-position\n",
                "rift",
                1,
                "unsupported version '' (expected 'rift-position 1')",
            ),
            (
                "beyond-position 1\n",
                "gods",
                1,
                "a beyond position, not a gods one (expected 'gods-position 1')",
            ),
            (
                "turn 3\nrift-position 1\n",
                "rift",
                1,
                "a rift position starts with 'rift-position 1', found 'turn 3'",
            ),
            (
                "-position 1\n",
                "rift",
                1,
                "a rift position starts with 'rift-position 1', found '-position 1'",
            ),
        ];
        for (text, game, line, message) in cases {
            assert_eq!(header(text, game), Err(error(line, message)), "{text:?}");
        }
    }

    #[test]
    fn words_numbers_and_flags_give_errors_at_their_line() {
        let line = PositionLine {
            number: 7,
            text: "mech A hp=3 done=1",
        };
        let words = line.words();
        let m = pairs(line.number, &words[2..], &["hp", "done"]).unwrap();
        assert_eq!(number::<u8>(7, "hp", m["hp"]), Ok(3));
        assert_eq!(flag(7, "done", m["done"]), Ok(true));
        assert_eq!(
            pairs(7, &["speed=2"], &["hp", "done"]).unwrap_err(),
            error(7, "unknown key 'speed' (valid: hp, done)")
        );
        assert_eq!(
            pairs(7, &["hp"], &["hp"]).unwrap_err().to_string(),
            "line 7: expected key=value, got 'hp'"
        );
        assert_eq!(
            number::<u8>(7, "hp", "300").unwrap_err().message,
            "hp=300: out of range for hp"
        );
        assert_eq!(
            number::<u32>(7, "turn", "-1").unwrap_err().message,
            "turn=-1: out of range for turn"
        );
        assert_eq!(
            number::<u8>(7, "hp", "3x").unwrap_err().message,
            "hp=3x: not a number"
        );
        assert_eq!(
            flag(7, "done", "yes").unwrap_err().message,
            "done=yes: expected 0 or 1"
        );
        assert_eq!(line.error("x"), error(7, "x"));
        assert_eq!(word_name(&name_word("Sun Li")), "Sun Li");
    }
}
