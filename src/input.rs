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

/// Why a file gives no text ([`read_text`]).
#[derive(Debug)]
pub enum ReadError {
    /// The file cannot be read: the system's reason.
    Io(std::io::Error),
    /// The file is not UTF-8: where its first byte that is not (1-based line and column in
    /// characters, as every located error; a leading byte-order mark is not counted), and
    /// that byte.
    NotUtf8 {
        /// The line of the byte.
        line: usize,
        /// Its column: the characters before it on its line, plus one.
        column: usize,
        /// The byte.
        byte: u8,
    },
}

impl std::fmt::Display for ReadError {
    /// The reason alone: the system's, or `invalid UTF-8 byte 0xff (sololab reads files as
    /// UTF-8 text)` (the place is [`ReadError::at`]'s).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => e.fmt(f),
            ReadError::NotUtf8 { byte, .. } => write!(
                f,
                "invalid UTF-8 byte 0x{byte:02x} (sololab reads files as UTF-8 text)"
            ),
        }
    }
}

impl std::error::Error for ReadError {}

impl ReadError {
    /// The line and column of the byte that is not UTF-8; `None` for a file that cannot be
    /// read.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        match self {
            ReadError::Io(_) => None,
            ReadError::NotUtf8 { line, column, .. } => Some((*line, *column)),
        }
    }

    /// The error on one line for `file`: `FILE: cannot read: REASON`, or located,
    /// `FILE:LINE:COLUMN: invalid UTF-8 byte 0xff (...)`.
    pub fn at(&self, file: &str) -> String {
        match self.line_column() {
            Some((line, column)) => format!("{file}:{line}:{column}: {self}"),
            None => format!("{file}: cannot read: {self}"),
        }
    }
}

/// The text of the file at `path`: every input file (experiment, strategy, position, content)
/// is read through here, so that one that is not UTF-8 is reported at its first bad byte.
///
/// # Errors
/// [`ReadError::Io`] when the file cannot be read, [`ReadError::NotUtf8`] when it is not UTF-8.
pub fn read_text(path: &std::path::Path) -> Result<String, ReadError> {
    utf8_text(std::fs::read(path).map_err(ReadError::Io)?)
}

/// `bytes` as text.
///
/// # Errors
/// [`ReadError::NotUtf8`] at the first byte that is not UTF-8.
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let bad = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let before = std::str::from_utf8(&bytes[..bad]).unwrap_or_default();
        let before = strip_bom(before);
        let (line, column) = line_column(before, before.len());
        ReadError::NotUtf8 {
            line,
            column,
            byte: bytes[bad],
        }
    })
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
    fn text_that_is_not_utf8_is_located_at_its_first_bad_byte() {
        assert_eq!(utf8_text(b"a = 1\n".to_vec()).unwrap(), "a = 1\n");
        let e = utf8_text(b"a = 1\nb = \"\xc3\xa9\xff\"\n".to_vec()).unwrap_err();
        assert_eq!(e.line_column(), Some((2, 7)));
        assert_eq!(
            e.at("x.toml"),
            "x.toml:2:7: invalid UTF-8 byte 0xff (sololab reads files as UTF-8 text)"
        );
        // A byte-order mark is not counted, a truncated sequence is found at its first byte.
        let e = utf8_text(b"\xef\xbb\xbfab\xe2\x82".to_vec()).unwrap_err();
        assert_eq!(e.line_column(), Some((1, 3)));
        assert!(e.to_string().contains("0xe2"), "{e}");
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
