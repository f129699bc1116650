//! What every reader of an input file (experiments, strategies, positions, content) shares so
//! that all of them hold the same standard: a UTF-8 byte-order mark is accepted and not counted
//! in columns, positions are 1-based line and column in characters, TOML types are named with
//! their article ("an integer"), and an integer too large for TOML is reported as such (not
//! as the parser's internal `i128`).

use std::ops::Range;

use toml::de::{DeTable, DeValue};

/// The UTF-8 byte-order mark some editors put at the start of a file.
pub const BOM: char = '\u{feff}';

/// `text` without a leading byte-order mark (offsets into the result count from the first
/// character after it, so columns on line 1 are not shifted).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// The 1-based line and column (in characters) of byte `offset` in `text` (clamped to the
/// text, and to a character boundary).
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Whether `name` is a plain name, one that is a file or folder name of its own and no path:
/// ASCII letters, digits, `-`, `_` and `.`, not empty and not `.` or `..`. An experiment's
/// name (its report folder) and a strategy's name (the stem of `strategies/<name>.toml`) are
/// plain names.
pub fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// The first item of `items` that an earlier one equals (a name listed twice), if any.
pub fn first_repeat<T: PartialEq>(items: &[T]) -> Option<&T> {
    items
        .iter()
        .enumerate()
        .find(|(i, x)| items[..*i].contains(x))
        .map(|(_, x)| x)
}

/// What a plain name ([`is_plain_name`]) may hold, for messages.
pub const PLAIN_NAME_CHARS: &str = "letters, digits, '-', '_', '.'";

/// A TOML type name (`integer`, `array`, ... as `toml::Value::type_str` gives them) with its
/// indefinite article: `an integer`, `an array`, `a string`.
pub fn with_article(type_name: &str) -> String {
    match type_name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u') => format!("an {type_name}"),
        _ => format!("a {type_name}"),
    }
}

/// An integer of a TOML text that does not fit a TOML integer (a signed 64-bit number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BigInteger {
    /// Its byte range in the text.
    pub span: Range<usize>,
    /// As written, with its base's prefix (`100000000000000000000`, `0x8000000000000000`).
    pub written: String,
    /// The keys of the tables leading to it and its own (an array's element is under its
    /// array's key): `["setup", "ruins"]`.
    pub keys: Vec<String>,
}

impl BigInteger {
    /// `integer 100000000000000000000 is out of range (TOML integers are
    /// -9223372036854775808..=9223372036854775807)`.
    pub fn message(&self) -> String {
        format!(
            "integer {} is out of range (TOML integers are {}..={})",
            self.written,
            i64::MIN,
            i64::MAX
        )
    }
}

/// The first integer in TOML `text` that does not fit a TOML integer (a signed 64-bit
/// number); `None` when every integer fits or the text is not valid TOML (the parser's own
/// error says where).
pub fn big_integer(text: &str) -> Option<BigInteger> {
    let table = DeTable::parse(text).ok()?;
    find_big_integer_in_table(table.get_ref(), &mut Vec::new())
}

/// The first integer in TOML `text` that does not fit a TOML integer (a signed 64-bit
/// number), with its byte range and a one-line message, e.g. `integer 100000000000000000000
/// is out of range (TOML integers are -9223372036854775808..=9223372036854775807)`. `None`
/// when every integer fits or the text is not valid TOML (the parser's own error says where).
pub fn integer_out_of_range(text: &str) -> Option<(Range<usize>, String)> {
    big_integer(text).map(|b| (b.span.clone(), b.message()))
}

fn find_big_integer_in_table(table: &DeTable<'_>, keys: &mut Vec<String>) -> Option<BigInteger> {
    table.iter().find_map(|(k, v)| {
        keys.push(k.get_ref().to_string());
        let found = find_big_integer(v.get_ref(), v.span(), keys);
        keys.pop();
        found
    })
}

fn find_big_integer(
    value: &DeValue<'_>,
    span: Range<usize>,
    keys: &mut Vec<String>,
) -> Option<BigInteger> {
    match value {
        DeValue::Integer(i) if i64::from_str_radix(i.as_str(), i.radix()).is_err() => {
            let written = match i.radix() {
                10 => i.as_str().to_string(),
                16 => format!("0x{}", i.as_str()),
                8 => format!("0o{}", i.as_str()),
                2 => format!("0b{}", i.as_str()),
                r => format!("{} (base {r})", i.as_str()),
            };
            Some(BigInteger {
                span,
                written,
                keys: keys.clone(),
            })
        }
        DeValue::Array(a) => a
            .iter()
            .find_map(|v| find_big_integer(v.get_ref(), v.span(), keys)),
        DeValue::Table(t) => find_big_integer_in_table(t, keys),
        _ => None,
    }
}

/// Whether `text` is a whole number in decimal digits, with an optional sign (`-3`, `+12`,
/// `99999999999999999999`): what a command line's integer value looks like, whatever its size.
pub fn is_whole_number(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The byte range of the value at dotted `path` (keys) in TOML `text`, for locating a value
/// error; `None` when the text does not parse or the path is absent.
pub fn value_span(text: &str, path: &[&str]) -> Option<Range<usize>> {
    let table = DeTable::parse(text).ok()?;
    let (first, rest) = path.split_first()?;
    let mut value = table.get_ref().get(*first)?;
    for key in rest {
        match value.get_ref() {
            DeValue::Table(t) => value = t.get(*key)?,
            _ => return None,
        }
    }
    Some(value.span())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles() {
        assert_eq!(with_article("integer"), "an integer");
        assert_eq!(with_article("array"), "an array");
        assert_eq!(with_article("string"), "a string");
        assert_eq!(with_article("table"), "a table");
    }

    #[test]
    fn big_integers_are_found_where_they_are() {
        let text = "a = 1\n[t]\nb = [2, 100000000000000000000]\n";
        let (span, message) = integer_out_of_range(text).unwrap();
        assert_eq!(line_column(text, span.start), (3, 9));
        assert!(message.starts_with("integer 100000000000000000000 is out of range"));
        assert_eq!(integer_out_of_range("a = 9223372036854775807\n"), None);
        assert!(integer_out_of_range("a = 0x8000000000000000\n").is_some());
        let big = big_integer("[sweep]\nruins = [1, 99999999999999999999]\n").unwrap();
        assert_eq!(big.keys, ["sweep", "ruins"]);
        assert_eq!(big.written, "99999999999999999999");
    }

    #[test]
    fn whole_numbers_are_digits_with_a_sign() {
        assert!(is_whole_number("99999999999999999999"));
        assert!(is_whole_number("-3") && is_whole_number("+3"));
        assert!(!is_whole_number("-") && !is_whole_number("2.5") && !is_whole_number("1e3"));
    }

    #[test]
    fn value_spans_follow_dotted_keys() {
        let text = "kind = 1\n[weights.rift]\nx = \"y\"\n";
        let span = value_span(text, &["weights", "rift", "x"]).unwrap();
        assert_eq!(line_column(text, span.start), (3, 5));
        assert_eq!(value_span(text, &["nope"]), None);
    }
}
