//! Loading any game's content file (TOML) with errors located by file, entry, field, line and
//! column, so each game writes only its own rules of the format.
//!
//! A game deserializes its file into plain serde structs (`#[serde(deny_unknown_fields)]`) with
//! [`ContentText::deserialize`], then checks its own rules and compiles compact tables, reporting
//! what it finds with [`ContentText::error`]. Every error is one line:
//!
//! ```text
//! SOURCE:LINE:COLUMN: ENTRY: field 'PATH': MESSAGE
//! ```
//!
//! e.g. `rift.toml:212:33: monster 'Demon': field 'normal.attack.shape': unknown attack shape
//! 'cone' (valid: ...)`. The entry is an element of an array of tables, named by its `name` key
//! (`monster 'Demon'`) or else by its 1-based position (`campaign game 2`; the word before it is
//! the table's key unless [`ContentText::with_labels`] gives another), or a top-level table
//! (`turret`). The field is the path below the entry, with 1-based indices
//! (`upgrades[2].weapon.damage`). Parts that do not apply are left out: a value that is not in
//! the file has no line and column, a whole-file error has no entry and no field.
//!
//! Nothing here scans TOML text by hand: the field path of a serde error comes from
//! `serde_path_to_error`, line and column from the spans of the `toml` crate's document tree
//! ([`toml::de::DeTable`]). A UTF-8 byte-order mark at the start of the text is accepted and
//! not counted in columns.
//!
//! [`load_cached`] reads and compiles each distinct content file once per process and leaks the
//! result, so games hold `&'static` content and an experiment naming one file in thousands of
//! cells reads it once.

use std::any::{Any, TypeId};
use std::cell::OnceCell;
use std::fmt::{self, Display};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use crate::game::SetupError;

pub mod values;
pub use values::{
    ContentValue, ValueKind, canonical_paths, content_values, is_value_path, resolve_content,
    same_content, set_values,
};

/// One step of a [`FieldPath`]: a key of a table or a 0-based index into an array.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PathSeg {
    /// A key of a table (`shape`).
    Key(String),
    /// A 0-based index into an array (shown 1-based in messages).
    Index(usize),
}

/// The path of a value in a content document, from the document's root: keys and 0-based
/// indices. Shown in messages with dots and 1-based indices, `monster[1].normal.attack.shape`.
///
/// # Examples
/// ```
/// use sololab::content::FieldPath;
/// let p = FieldPath::root().key("camp").index(2).key("speed");
/// assert_eq!(p.to_string(), "camp[3].speed");
/// assert_eq!(FieldPath::parse("camp[3].speed"), p);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(Vec<PathSeg>);

impl FieldPath {
    /// The document's root (an error there is about the whole file).
    pub const fn root() -> FieldPath {
        FieldPath(Vec::new())
    }

    /// This path followed by table key `key`.
    #[must_use]
    pub fn key(mut self, key: &str) -> FieldPath {
        self.0.push(PathSeg::Key(key.to_string()));
        self
    }

    /// This path followed by array index `index` (0-based).
    #[must_use]
    pub fn index(mut self, index: usize) -> FieldPath {
        self.0.push(PathSeg::Index(index));
        self
    }

    /// Reads a path in its displayed form: keys separated by dots, **1-based** indices in
    /// brackets (`upgrades[2].weapon`, `compass[3]`). An empty text is the root. A bracket
    /// that does not hold a number from 1 up is kept as part of the key (never panics).
    pub fn parse(display: &str) -> FieldPath {
        FieldPath::root().join(display)
    }

    /// This path followed by `relative`, in the displayed form of [`FieldPath::parse`].
    #[must_use]
    pub fn join(&self, relative: &str) -> FieldPath {
        let mut out = self.clone();
        for part in relative.split('.').filter(|p| !p.is_empty()) {
            let (key, mut rest) = match part.find('[') {
                Some(i) => (&part[..i], &part[i..]),
                None => (part, ""),
            };
            let mut indices = Vec::new();
            while let Some(r) = rest.strip_prefix('[') {
                let Some(end) = r.find(']') else { break };
                match r[..end].parse::<usize>() {
                    Ok(n) if n >= 1 => indices.push(n - 1),
                    _ => break,
                }
                rest = &r[end + 1..];
            }
            if !rest.is_empty() {
                // Not the displayed form: keep the whole part as one key.
                out.0.push(PathSeg::Key(part.to_string()));
                continue;
            }
            if !key.is_empty() {
                out.0.push(PathSeg::Key(key.to_string()));
            }
            out.0.extend(indices.into_iter().map(PathSeg::Index));
        }
        out
    }

    /// The steps from the root.
    pub fn segments(&self) -> &[PathSeg] {
        &self.0
    }
}

impl Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_segments(f, &self.0)
    }
}

/// Writes steps in the displayed form (dots, 1-based indices).
fn write_segments(f: &mut impl fmt::Write, segs: &[PathSeg]) -> fmt::Result {
    for (i, s) in segs.iter().enumerate() {
        match s {
            PathSeg::Key(k) if i == 0 => f.write_str(k)?,
            PathSeg::Key(k) => write!(f, ".{k}")?,
            PathSeg::Index(n) => write!(f, "[{}]", n + 1)?,
        }
    }
    Ok(())
}

fn segments_text(segs: &[PathSeg]) -> String {
    let mut s = String::new();
    let _ = write_segments(&mut s, segs);
    s
}

/// The text of one content file and its name, for deserializing it and for locating errors in
/// it. Parsing happens once, on first use; the document tree is kept for locating the errors
/// that validation finds afterwards.
pub struct ContentText<'a> {
    source: String,
    text: &'a str,
    labels: &'a [(&'a str, &'a str)],
    /// The document tree (partial when the text has syntax errors) and the syntax errors.
    doc: OnceCell<(Spanned<DeTable<'a>>, Vec<toml::de::Error>)>,
}

impl<'a> ContentText<'a> {
    /// Wraps `text`, named `source` in errors (`builtin` or a path). A UTF-8 byte-order mark at
    /// its start is dropped (columns do not count it).
    pub fn new(source: &str, text: &'a str) -> ContentText<'a> {
        ContentText {
            source: source.to_string(),
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            labels: &[],
            doc: OnceCell::new(),
        }
    }

    /// Names the entries of the arrays of tables listed as `(key, label)` by `label` instead of
    /// the key: with `("campaign", "campaign game")` the third `[[campaign]]` table is
    /// `campaign game 3` in messages.
    #[must_use]
    pub fn with_labels(mut self, labels: &'a [(&'a str, &'a str)]) -> ContentText<'a> {
        self.labels = labels;
        self
    }

    /// The name given to [`ContentText::new`].
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The text without its byte-order mark.
    pub fn text(&self) -> &'a str {
        self.text
    }

    fn doc(&self) -> &(Spanned<DeTable<'a>>, Vec<toml::de::Error>) {
        self.doc
            .get_or_init(|| DeTable::parse_recoverable(self.text))
    }

    /// Deserializes the whole document into `T` (use `#[serde(deny_unknown_fields)]` so a
    /// misspelt key is an error).
    ///
    /// # Errors
    /// A one-line [`SetupError`] for the first TOML syntax error (`SOURCE:LINE:COLUMN: ENTRY:
    /// MESSAGE`, the entry being the one the error is in), or for a value of the wrong type, a
    /// missing or an unknown key (`SOURCE:LINE:COLUMN: ENTRY: field 'PATH': MESSAGE`, with the
    /// path from `serde_path_to_error` and the line and column of the value, or of the table
    /// that lacks the key).
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, SetupError> {
        let (doc, syntax) = self.doc();
        if let Some(e) = syntax.first() {
            return Err(self.syntax_error(e));
        }
        let de = toml::de::Deserializer::from(doc.clone());
        serde_path_to_error::deserialize(de).map_err(|e| {
            let mut path = convert_path(e.path());
            let message = one_line(e.inner().message());
            // serde_path_to_error ends the path of an unknown key with the key itself, which
            // the message already names: the path stops at the table that holds it.
            if let Some(PathSeg::Key(k)) = path.last()
                && message.starts_with(&format!("unknown field `{k}`"))
            {
                path.pop();
            }
            let span = e
                .inner()
                .span()
                .filter(|s| !s.is_empty() || s.start > 0)
                .map(|s| s.start)
                .or_else(|| self.span_of(&path).map(|s| s.start));
            self.format(span, &path, &message)
        })
    }

    /// An error that validation found at `path` (the value's path in the document, e.g.
    /// `FieldPath::parse("camp[3].speed")`), in the one-line format of this module: located at
    /// the value when it is in the file, else at the nearest enclosing table or array that is
    /// (a missing key is reported at the table that lacks it), and without line and column
    /// when nothing on the path is in the file. The root path gives `SOURCE: MESSAGE`.
    pub fn error(&self, path: &FieldPath, message: impl Display) -> SetupError {
        let span = self.span_of(&path.0).map(|s| s.start);
        self.format(span, &path.0, &message.to_string())
    }

    /// The 1-based line and column where the value at `path` starts (or its nearest enclosing
    /// table or array that is in the file); `None` when nothing on the path is in the file.
    pub fn location(&self, path: &FieldPath) -> Option<(usize, usize)> {
        self.span_of(&path.0).map(|s| self.line_col(s.start))
    }

    /// The span of the deepest value on `path` that is in the document, if any but the root.
    fn span_of(&self, path: &[PathSeg]) -> Option<std::ops::Range<usize>> {
        let (doc, _) = self.doc();
        let mut value: Option<&Spanned<DeValue>> = None;
        for seg in path {
            let next = match (seg, value.map(Spanned::get_ref)) {
                (PathSeg::Key(k), None) => get(doc.get_ref(), k),
                (PathSeg::Key(k), Some(DeValue::Table(t))) => get(t, k),
                (PathSeg::Index(i), Some(DeValue::Array(a))) => a.get(*i),
                _ => None,
            };
            match next {
                Some(v) => value = Some(v),
                None => break,
            }
        }
        value.map(Spanned::span)
    }

    /// `(entry, field)` of a path: see the module docs.
    fn describe(&self, path: &[PathSeg]) -> (Option<String>, Option<String>) {
        let Some(PathSeg::Key(key)) = path.first() else {
            return (None, (!path.is_empty()).then(|| segments_text(path)));
        };
        let (doc, _) = self.doc();
        let top = get(doc.get_ref(), key).map(Spanned::get_ref);
        let rest_from = |n: usize| (path.len() > n).then(|| segments_text(&path[n..]));
        match (top, path.get(1)) {
            (Some(DeValue::Array(a)), Some(PathSeg::Index(i))) => {
                let label = self
                    .labels
                    .iter()
                    .find(|(k, _)| k == key)
                    .map_or(key.as_str(), |&(_, l)| l);
                let name = a
                    .get(*i)
                    .and_then(|e| e.get_ref().as_table())
                    .and_then(|t| get(t, "name"))
                    .and_then(|n| n.get_ref().as_str())
                    .filter(|n| !n.trim().is_empty());
                let entry = match name {
                    Some(n) => format!("{label} '{n}'"),
                    None => format!("{label} {}", i + 1),
                };
                (Some(entry), rest_from(2))
            }
            (Some(DeValue::Table(_)) | Some(DeValue::Array(_)) | None, _) => {
                (Some(key.clone()), rest_from(1))
            }
            _ if path.len() == 1 => (None, Some(key.clone())),
            _ => (Some(key.clone()), rest_from(1)),
        }
    }

    /// A TOML syntax error, located by the parser, with the entry it is in (the entry of the
    /// last value that starts before it in the partial document).
    fn syntax_error(&self, e: &toml::de::Error) -> SetupError {
        let message = one_line(e.message());
        let Some(span) = e.span() else {
            return SetupError(format!("{}: {message}", self.source));
        };
        let mut best: Option<(usize, Vec<PathSeg>)> = None;
        let (doc, _) = self.doc();
        let mut path = Vec::new();
        nearest_before(doc.get_ref(), span.start, &mut path, &mut best);
        let entry = best
            .and_then(|(_, p)| self.describe(&p).0)
            .map(|e| shown_name(&e));
        let (line, col) = self.line_col(span.start);
        let mut out = format!("{}:{line}:{col}:", self.source);
        if let Some(entry) = entry {
            out.push_str(&format!(" {entry}:"));
        }
        SetupError(format!("{out} {message}"))
    }

    fn format(&self, at: Option<usize>, path: &[PathSeg], message: &str) -> SetupError {
        let mut out = self.source.clone();
        if let Some(at) = at {
            let (line, col) = self.line_col(at);
            out.push_str(&format!(":{line}:{col}"));
        }
        out.push(':');
        let (entry, field) = self.describe(path);
        if let Some(entry) = entry {
            out.push_str(&format!(" {}:", shown_name(&entry)));
        }
        if let Some(field) = field {
            out.push_str(&format!(" field '{}':", shown_name(&field)));
        }
        SetupError(format!("{out} {}", one_line(message)))
    }

    /// 1-based line and column (in characters) of byte `offset`.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[start..].chars().count() + 1)
    }
}

/// The value of `key` in `table`.
fn get<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<&'t Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref() == key)
        .map(|(_, v)| v)
}

/// The path of the value with the greatest start `<= offset` (values of empty span, which a
/// recovering parse leaves for what it could not read, do not count).
fn nearest_before(
    table: &DeTable,
    offset: usize,
    path: &mut Vec<PathSeg>,
    best: &mut Option<(usize, Vec<PathSeg>)>,
) {
    fn visit(
        v: &Spanned<DeValue>,
        offset: usize,
        path: &mut Vec<PathSeg>,
        best: &mut Option<(usize, Vec<PathSeg>)>,
    ) {
        let span = v.span();
        if !span.is_empty()
            && span.start <= offset
            && best.as_ref().is_none_or(|b| b.0 <= span.start)
        {
            *best = Some((span.start, path.clone()));
        }
        match v.get_ref() {
            DeValue::Table(t) => nearest_before(t, offset, path, best),
            DeValue::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    path.push(PathSeg::Index(i));
                    visit(x, offset, path, best);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    for (k, v) in table.iter() {
        path.push(PathSeg::Key(k.get_ref().to_string()));
        visit(v, offset, path, best);
        path.pop();
    }
}

fn convert_path(p: &serde_path_to_error::Path) -> Vec<PathSeg> {
    use serde_path_to_error::Segment;
    let mut out = Vec::new();
    for s in p.iter() {
        match s {
            Segment::Seq { index } => out.push(PathSeg::Index(*index)),
            Segment::Map { key } => out.push(PathSeg::Key(key.clone())),
            Segment::Enum { variant } => out.push(PathSeg::Key(variant.clone())),
            Segment::Unknown => break,
        }
    }
    out
}

/// A possibly multi-line message as one line (`; ` between its lines).
/// An entry or field name as an error shows it: on one line and at most 60 characters (a
/// damaged file can make a key of a multi-line string, hundreds of lines long): the first
/// line, cut at 40 characters, then `...`.
fn shown_name(name: &str) -> String {
    let first = name.lines().next().unwrap_or("");
    if first.len() == name.len() && name.chars().count() <= 60 {
        return name.to_string();
    }
    let cut: String = first.chars().take(40).collect();
    format!("{cut}...")
}

fn one_line(message: &str) -> String {
    message
        .trim()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// A compiled content file in the cache: (its type, the compile function, the canonical path).
type CacheKey = (TypeId, usize, PathBuf);

static CACHE: Mutex<Vec<(CacheKey, &'static (dyn Any + Send + Sync))>> = Mutex::new(Vec::new());

/// Parses content text in the shared way: `text` read as TOML into the game's raw file type
/// `Raw` (errors at `source:line:column`, [`ContentText::deserialize`]), then `compile`d with
/// the [`ContentText`] at hand for located errors (`source: entry 'NAME': field 'PATH': ...`).
///
/// # Errors
/// The deserializer's or `compile`'s one-line [`SetupError`].
pub fn parse_with<Raw: DeserializeOwned, C>(
    text: &str,
    source: &str,
    compile: impl FnOnce(&ContentText<'_>, Raw) -> Result<C, SetupError>,
) -> Result<C, SetupError> {
    let doc = ContentText::new(source, text);
    let raw: Raw = doc.deserialize()?;
    compile(&doc, raw)
}

/// The text of the content file at `path` (`source`, the path as given, names it).
///
/// # Errors
/// `SOURCE: cannot read content file: REASON`, or for a file that is not UTF-8
/// `SOURCE:LINE:COLUMN: invalid UTF-8 byte 0xff (...)`, at its first bad byte.
pub fn read_content_file(path: &Path, source: &str) -> Result<String, SetupError> {
    crate::input::read_text(path).map_err(|e| match e {
        crate::input::ReadError::Io(e) => {
            SetupError(format!("{source}: cannot read content file: {e}"))
        }
        not_utf8 => SetupError(not_utf8.at(source)),
    })
}

/// Reads the content file at `path` and compiles it with `compile(text, source)` (`source` is
/// the path as given, for messages) once per process, and leaks the result so games can hold
/// `&'static` content. Later calls with the same file (the same canonical path), the same
/// `compile` and the same content type return the same reference without reading the file
/// again: an experiment naming one file in every cell reads and compiles it once. Failures are
/// not cached.
///
/// Memory: each distinct file's compiled content stays for the life of the process (a few
/// kilobytes per file).
///
/// # Errors
/// `SOURCE: cannot read content file: REASON` when the file cannot be read, one located at
/// its first bad byte when it is not UTF-8 ([`read_content_file`]), or any error of `compile`.
pub fn load_cached<C: Send + Sync + 'static>(
    path: &Path,
    compile: fn(&str, &str) -> Result<C, SetupError>,
) -> Result<&'static C, SetupError> {
    let source = path.display().to_string();
    let canonical = std::fs::canonicalize(path)
        .map_err(|e| SetupError(format!("{source}: cannot read content file: {e}")))?;
    let key: CacheKey = (TypeId::of::<C>(), compile as usize, canonical);
    // Held while compiling, so two threads asking for one file compile it once.
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, c)) = cache.iter().find(|(k, _)| *k == key)
        && let Some(c) = c.downcast_ref::<C>()
    {
        return Ok(c);
    }
    let text = read_content_file(path, &source)?;
    let compiled: &'static C = Box::leak(Box::new(compile(&text, &source)?));
    cache.push((key, compiled));
    Ok(compiled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        #[serde(default)]
        camp: Vec<Camp>,
        boss: Option<Boss>,
        title: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Camp {
        name: Option<String>,
        speed: i64,
        #[serde(default)]
        moves: Vec<String>,
        attack: Option<Attack>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Attack {
        damage: i64,
    }

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Boss {
        hp: i64,
    }

    const TEXT: &str = "title = \"t\"\n\
                        [[camp]]\n\
                        name = \"Wolves\"\n\
                        speed = 2\n\
                        moves = [\"N\", \"E\"]\n\
                        attack = { damage = 1 }\n\
                        \n\
                        [[camp]]\n\
                        speed = 3\n\
                        \n\
                        [boss]\n\
                        hp = 9\n";

    fn err(text: &str) -> String {
        ContentText::new("x.toml", text)
            .with_labels(&[("camp", "camp card")])
            .deserialize::<Doc>()
            .unwrap_err()
            .0
    }

    #[test]
    fn paths_read_and_show_one_based() {
        let p = FieldPath::parse("upgrades[2].weapon.damage");
        assert_eq!(
            p.segments(),
            &[
                PathSeg::Key("upgrades".into()),
                PathSeg::Index(1),
                PathSeg::Key("weapon".into()),
                PathSeg::Key("damage".into())
            ]
        );
        assert_eq!(p.to_string(), "upgrades[2].weapon.damage");
        assert_eq!(
            FieldPath::parse("a[0]").segments().len(),
            1,
            "[0] is not an index"
        );
        assert_eq!(FieldPath::parse(""), FieldPath::root());
        assert_eq!(
            FieldPath::root()
                .key("m")
                .index(0)
                .join("x[1][2]")
                .to_string(),
            "m[1].x[1][2]"
        );
    }

    #[test]
    fn type_error_names_entry_field_line_and_column() {
        let e = err(&TEXT.replace("speed = 2", "speed = \"fast\""));
        assert!(
            e.starts_with("x.toml:4:9: camp card 'Wolves': field 'speed': invalid type"),
            "{e}"
        );
        let e = err(&TEXT.replace("moves = [\"N\", \"E\"]", "moves = [\"N\", 3]"));
        assert!(
            e.starts_with("x.toml:5:15: camp card 'Wolves': field 'moves[2]': invalid type"),
            "{e}"
        );
        let e = err(&TEXT.replace("{ damage = 1 }", "{ damage = true }"));
        assert!(
            e.starts_with("x.toml:6:21: camp card 'Wolves': field 'attack.damage': invalid type"),
            "{e}"
        );
        // An entry without a name is named by its 1-based position.
        let e = err(&TEXT.replace("speed = 3", "speed = 3.5"));
        assert!(
            e.starts_with("x.toml:9:9: camp card 2: field 'speed': invalid type"),
            "{e}"
        );
        let e = err(&TEXT.replace("hp = 9", "hp = \"x\""));
        assert!(
            e.starts_with("x.toml:12:6: boss: field 'hp': invalid type"),
            "{e}"
        );
        assert!(!e.contains('\n'));
    }

    #[test]
    fn unknown_and_missing_keys_are_located() {
        let e = err(&TEXT.replace("speed = 3", "speed = 3\nsped = 1"));
        assert!(
            e.starts_with("x.toml:10:1: camp card 2: unknown field `sped`"),
            "{e}"
        );
        let e = err(&TEXT.replace("speed = 3\n", ""));
        assert!(
            e.starts_with("x.toml:8:1: camp card 2: missing field `speed`"),
            "{e}"
        );
        let e = err(&TEXT.replace("title", "titel"));
        assert!(e.starts_with("x.toml:1:1: unknown field `titel`"), "{e}");
    }

    #[test]
    fn syntax_error_gives_line_column_and_entry() {
        let e = err(&TEXT.replace("speed = 3", "speed = = 3"));
        assert!(e.starts_with("x.toml:9:9: camp card 2: "), "{e}");
        let e = err("title = \"t\nx = 1\n");
        assert!(e.starts_with("x.toml:1:"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn a_byte_order_mark_is_accepted_and_not_counted() {
        let with_bom = format!("\u{feff}{}", TEXT.replace("speed = 2", "speed = \"fast\""));
        let e = err(&with_bom);
        assert!(e.starts_with("x.toml:4:9: camp card 'Wolves'"), "{e}");
        let doc: Doc = ContentText::new("x.toml", &format!("\u{feff}{TEXT}"))
            .deserialize()
            .unwrap();
        assert_eq!(doc.camp.len(), 2);
        let e = err("\u{feff}titel = 1\n");
        assert!(e.starts_with("x.toml:1:1: "), "{e}");
    }

    #[test]
    fn validation_errors_are_located_at_the_value_or_its_table() {
        let text = ContentText::new("x.toml", TEXT).with_labels(&[("camp", "camp card")]);
        let _: Doc = text.deserialize().unwrap();
        let e = text.error(
            &FieldPath::parse("camp[2].speed"),
            "speed must be 1-2, got 3",
        );
        assert_eq!(
            e.0,
            "x.toml:9:9: camp card 2: field 'speed': speed must be 1-2, got 3"
        );
        let e = text.error(&FieldPath::parse("camp[1].moves[2]"), "bad");
        assert_eq!(
            e.0,
            "x.toml:5:15: camp card 'Wolves': field 'moves[2]': bad"
        );
        // A key the entry lacks: located at the entry's table header.
        let e = text.error(&FieldPath::parse("camp[2].attack.damage"), "needed");
        assert_eq!(
            e.0,
            "x.toml:8:1: camp card 2: field 'attack.damage': needed"
        );
        // Nothing on the path in the file: no line and column.
        let e = text.error(&FieldPath::parse("relic"), "missing the [relic] table");
        assert_eq!(e.0, "x.toml: relic: missing the [relic] table");
        let e = text.error(&FieldPath::root(), "expected 3 camp cards, found 2");
        assert_eq!(e.0, "x.toml: expected 3 camp cards, found 2");
        // A top-level value is a field, not an entry.
        let e = text.error(&FieldPath::parse("title"), "too short");
        assert_eq!(e.0, "x.toml:1:9: field 'title': too short");
        assert_eq!(text.location(&FieldPath::parse("boss.hp")), Some((12, 6)));
        assert_eq!(text.location(&FieldPath::parse("relic.hp")), None);
    }

    static COMPILED: AtomicUsize = AtomicUsize::new(0);

    fn compile(text: &str, source: &str) -> Result<usize, SetupError> {
        COMPILED.fetch_add(1, Ordering::SeqCst);
        let doc: Doc = ContentText::new(source, text).deserialize()?;
        Ok(doc.camp.len())
    }

    #[test]
    fn load_cached_reads_and_compiles_each_file_once() {
        let dir = std::env::temp_dir().join(format!("sololab-content-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.toml");
        let b = dir.join("b.toml");
        std::fs::write(&a, TEXT).unwrap();
        std::fs::write(&b, format!("\u{feff}{TEXT}[[camp]]\nspeed = 1\n")).unwrap();
        let first = load_cached(&a, compile).unwrap();
        for _ in 0..100 {
            let again = load_cached(&a, compile).unwrap();
            assert!(std::ptr::eq(first, again));
        }
        // The same file by another spelling of its path is the same file.
        let other = dir.join(".").join("a.toml");
        assert!(std::ptr::eq(first, load_cached(&other, compile).unwrap()));
        assert_eq!(*first, 2);
        assert_eq!(*load_cached(&b, compile).unwrap(), 3);
        assert_eq!(COMPILED.load(Ordering::SeqCst), 2);
        let e = load_cached(&dir.join("none.toml"), compile).unwrap_err().0;
        assert!(e.contains("none.toml: cannot read content file"), "{e}");
        let bad = dir.join("bad.toml");
        std::fs::write(&bad, "titel = 1\n").unwrap();
        let e = load_cached(&bad, compile).unwrap_err().0;
        assert!(e.starts_with(&format!("{}:1:1: ", bad.display())), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
