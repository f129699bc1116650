//! Content values as setup axes: every number (and name, switch) of a game's content file,
//! addressed by a path, can be set from an experiment's `[setup]` or `[sweep]` like any axis
//! (issue 17). One mechanism for every game: the value is changed in the content file's text
//! (format-preserving, with `toml_edit`, so lines and columns of errors stay those of the
//! file), and the text goes through the game's own content loader, whose validation applies.
//!
//! # Paths
//!
//! A path is the keys from the document's root joined by dots. An element of an array of
//! tables (or of inline tables) with a `name` key is addressed by its name
//! (`monster.Demon.normal.hp`, `mech.Atlas.movement`); any other element by its 1-based index
//! in brackets (`campaign[2].alphas`, `mech.Wukong.upgrades[1].hp`). [`content_values`] lists
//! every path of a document. A key that contains a dot or a bracket is a value path
//! ([`is_value_path`]); a game's axes never do.
//!
//! # Values
//!
//! An integer sets an integer value of the file; a real value of the file (written with a
//! decimal point, `move = 4.0`) takes a real ([`AxisValue::Real`], `4.5`, finite only) or a
//! whole number, written back as the shortest text that reads as the same `f64` (`4.5`,
//! `5.0`); `true`/`false` sets a switch, a name a string. A real for an integer value is
//! refused (`2.5 is a real number, expected an integer`). `name` keys are not values (they
//! identify the entries other values refer to).
//!
//! # Caching
//!
//! [`resolve_content`] compiles each distinct (content source, set of changed values) once per
//! process and leaks it, like [`load_cached`], so a game's setup holds `&'static` content and a
//! sweep of three values compiles three contents. Two spellings of one change (`4` and `4.0`
//! for a real value, `monster[1]` and `monster.Demon` for one path) are one change, so one
//! content: [`same_content`] compares setups' contents by reference.
//!
//! # Spellings of a path
//!
//! An entry of an array whose entries have names can also be reached by its index
//! (`monster[1].normal.hp` is `monster.Demon.normal.hp` when the Demon is the first monster).
//! [`canonical_paths`] gives every path's one spelling, the one [`content_values`] lists; the
//! lab compares keys by it, and [`set_values`] refuses two paths that name one value.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, Value};

use super::load_cached;
use crate::game::{AxisValue, SetupError, SetupValues};
use crate::setup::{Real, axis_error};

/// Whether setup key `key` is a content value path rather than a game's axis: it holds a dot
/// or a bracket.
pub fn is_value_path(key: &str) -> bool {
    key.contains('.') || key.contains('[')
}

/// The kind of a content value, which decides the values it can be set to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A whole number.
    Int,
    /// A real number (set from experiments with a real or a whole number).
    Real,
    /// `true` or `false`.
    Bool,
    /// A string (a name of the format: a shape, a locomotion, a map row).
    Name,
}

/// One value of a content document: its path and its current value.
#[derive(Clone, Debug, PartialEq)]
pub struct ContentValue {
    /// The path ([module docs](self)).
    pub path: String,
    /// What kind of value it is.
    pub kind: ValueKind,
    /// The current value as written in TOML (`3`, `4.0`, `true`, `"walk"`).
    pub current: String,
    /// The current value as a setup value: [`AxisValue::Int`], [`AxisValue::Real`] (every
    /// value the file writes with a decimal point, whole or not), [`AxisValue::Bool`] or
    /// [`AxisValue::Name`]; `None` for a real the file writes as `inf` or `nan`.
    pub value: Option<AxisValue>,
}

/// One step of a parsed path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// Reads a path into steps; `None` when it is malformed (an empty part, a bad index).
fn parse_path(path: &str) -> Option<Vec<Step>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if key.is_empty() && out.is_empty() {
            return None;
        }
        if !key.is_empty() {
            out.push(Step::Key(key.to_string()));
        } else if rest.is_empty() {
            return None;
        }
        while let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']')?;
            let n: usize = r[..end].parse().ok().filter(|&n| n >= 1)?;
            out.push(Step::Index(n - 1));
            rest = &r[end + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(out)
}

/// A name usable as a path step: non-empty, without dots or brackets.
fn plain_name(name: &str) -> bool {
    !name.trim().is_empty() && !name.contains(['.', '[', ']'])
}

/// The `name` of an element of an array, if it is a table with a string `name`.
fn table_name(t: &Table) -> Option<&str> {
    t.get("name").and_then(Item::as_str)
}

fn value_name(v: &Value) -> Option<&str> {
    v.as_inline_table()
        .and_then(|t| t.get("name"))
        .and_then(Value::as_str)
}

/// Whether the elements' names can address them: all present, plain and distinct.
fn names_address<'a>(names: impl Iterator<Item = Option<&'a str>>) -> bool {
    let mut seen = Vec::new();
    for n in names {
        match n {
            Some(n) if plain_name(n) && !seen.contains(&n) => seen.push(n),
            _ => return false,
        }
    }
    !seen.is_empty()
}

/// Every value of a content document, in file order: numbers, switches and strings (not the
/// `name` keys). Each path resolves with [`set_values`].
///
/// # Errors
/// The TOML syntax error, in one line (the game's loader locates it better).
pub fn content_values(text: &str) -> Result<Vec<ContentValue>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.message().to_string())?;
    let mut out = Vec::new();
    list_table(doc.as_table(), "", &mut out);
    Ok(out)
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

fn list_table(t: &Table, prefix: &str, out: &mut Vec<ContentValue>) {
    for (k, item) in t.iter() {
        if k == "name" {
            continue;
        }
        let path = join(prefix, k);
        match item {
            Item::Table(t) => list_table(t, &path, out),
            Item::ArrayOfTables(a) => list_aot(a, &path, out),
            Item::Value(v) => list_value(v, &path, out),
            Item::None => {}
        }
    }
}

fn list_aot(a: &ArrayOfTables, path: &str, out: &mut Vec<ContentValue>) {
    let by_name = names_address(a.iter().map(table_name));
    for (i, t) in a.iter().enumerate() {
        let p = match table_name(t) {
            Some(n) if by_name => format!("{path}.{n}"),
            _ => format!("{path}[{}]", i + 1),
        };
        list_table(t, &p, out);
    }
}

fn list_value(v: &Value, path: &str, out: &mut Vec<ContentValue>) {
    let push = |out: &mut Vec<ContentValue>, kind, value| {
        out.push(ContentValue {
            path: path.to_string(),
            kind,
            current: {
                let mut bare = v.clone();
                bare.decor_mut().clear();
                bare.to_string()
            },
            value,
        })
    };
    match v {
        Value::Integer(n) => push(out, ValueKind::Int, Some(AxisValue::Int(*n.value()))),
        Value::Float(x) => push(
            out,
            ValueKind::Real,
            Real::new(*x.value()).map(AxisValue::Real),
        ),
        Value::Boolean(b) => push(out, ValueKind::Bool, Some(AxisValue::Bool(*b.value()))),
        Value::String(s) => push(
            out,
            ValueKind::Name,
            Some(AxisValue::Name(s.value().clone())),
        ),
        Value::Datetime(_) => {}
        Value::Array(a) => {
            let by_name = names_address(a.iter().map(value_name));
            for (i, x) in a.iter().enumerate() {
                let p = match value_name(x) {
                    Some(n) if by_name => format!("{path}.{n}"),
                    _ => format!("{path}[{}]", i + 1),
                };
                list_value(x, &p, out);
            }
        }
        Value::InlineTable(t) => {
            for (k, x) in t.iter() {
                if k != "name" {
                    list_value(x, &join(path, k), out);
                }
            }
        }
    }
}

/// A place in the document while following a path.
enum Node<'a> {
    Table(&'a mut Table),
    Aot(&'a mut ArrayOfTables),
    Value(&'a mut Value),
}

impl<'a> Node<'a> {
    fn of_item(item: &'a mut Item) -> Option<Node<'a>> {
        match item {
            Item::Table(t) => Some(Node::Table(t)),
            Item::ArrayOfTables(a) => Some(Node::Aot(a)),
            Item::Value(v) => Some(Node::Value(v)),
            Item::None => None,
        }
    }

    /// What can follow here, for the message about a step that is not found.
    fn choices(&self) -> String {
        let keys = |ks: Vec<String>| {
            if ks.is_empty() {
                "nothing".to_string()
            } else {
                ks.join(", ")
            }
        };
        match self {
            Node::Table(t) => keys(
                t.iter()
                    .filter(|(k, _)| *k != "name")
                    .map(|(k, _)| k.to_string())
                    .collect(),
            ),
            Node::Aot(a) => {
                let names: Vec<String> = a
                    .iter()
                    .enumerate()
                    .map(|(i, t)| match table_name(t) {
                        Some(n) if names_address(a.iter().map(table_name)) => n.to_string(),
                        _ => format!("[{}]", i + 1),
                    })
                    .collect();
                keys(names)
            }
            Node::Value(Value::InlineTable(t)) => keys(
                t.iter()
                    .filter(|(k, _)| *k != "name")
                    .map(|(k, _)| k.to_string())
                    .collect(),
            ),
            Node::Value(Value::Array(a)) => {
                let by_name = names_address(a.iter().map(value_name));
                keys(
                    a.iter()
                        .enumerate()
                        .map(|(i, v)| match value_name(v) {
                            Some(n) if by_name => n.to_string(),
                            _ => format!("[{}]", i + 1),
                        })
                        .collect(),
                )
            }
            Node::Value(_) => "nothing (a value)".to_string(),
        }
    }

    /// The node `step` leads to, with the step in the path's canonical spelling: an entry of
    /// an array by its name when the names address the entries, else by its 1-based index
    /// (`[2]`); a key as it is.
    fn step(self, step: &Step) -> Option<(Node<'a>, String)> {
        let index = |i: usize, name: Option<&str>, by_name: bool| match name {
            Some(n) if by_name => n.to_string(),
            _ => format!("[{}]", i + 1),
        };
        match (self, step) {
            (Node::Table(t), Step::Key(k)) if k != "name" => {
                Some((Node::of_item(t.get_mut(k)?)?, k.clone()))
            }
            (Node::Aot(a), Step::Key(name)) => {
                if !names_address(a.iter().map(table_name)) {
                    return None;
                }
                let i = a
                    .iter()
                    .position(|t| table_name(t) == Some(name.as_str()))?;
                Some((Node::Table(a.get_mut(i)?), name.clone()))
            }
            (Node::Aot(a), Step::Index(i)) => {
                let by_name = names_address(a.iter().map(table_name));
                let shown = index(*i, a.get(*i).and_then(table_name), by_name);
                Some((Node::Table(a.get_mut(*i)?), shown))
            }
            (Node::Value(v), step) => match (v, step) {
                (Value::InlineTable(t), Step::Key(k)) if k != "name" => {
                    Some((Node::Value(t.get_mut(k)?), k.clone()))
                }
                (Value::Array(a), Step::Key(name)) => {
                    if !names_address(a.iter().map(value_name)) {
                        return None;
                    }
                    let i = a
                        .iter()
                        .position(|v| value_name(v) == Some(name.as_str()))?;
                    Some((Node::Value(a.get_mut(i)?), name.clone()))
                }
                (Value::Array(a), Step::Index(i)) => {
                    let by_name = names_address(a.iter().map(value_name));
                    let shown = index(*i, a.get(*i).and_then(value_name), by_name);
                    Some((Node::Value(a.get_mut(*i)?), shown))
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// The value as written in an experiment (names quoted).
fn written(v: &AxisValue) -> String {
    match v {
        AxisValue::Name(n) => format!("{n:?}"),
        other => other.to_string(),
    }
}

/// Follows `path` in `doc` to the value it names: the value, and the path's canonical
/// spelling, the one [`content_values`] lists (entries by name where their names address them,
/// else by `[N]`). Errors are messages without the axis (the caller adds it).
fn locate<'d>(doc: &'d mut DocumentMut, path: &str) -> Result<(&'d mut Value, String), String> {
    let steps = parse_path(path).ok_or_else(|| {
        "not a content value path (keys joined by dots, entries by name or [N], 1-based)"
            .to_string()
    })?;
    let mut node = Node::Table(doc.as_table_mut());
    let mut done = String::new();
    let mut canonical = String::new();
    for s in &steps {
        let shown = match s {
            Step::Key(k) => k.clone(),
            Step::Index(i) => format!("[{}]", i + 1),
        };
        let there = node.choices();
        let (next, spelt) = node.step(s).ok_or_else(|| {
            let place = if done.is_empty() {
                "the content".to_string()
            } else {
                format!("'{done}'")
            };
            format!(
                "no '{shown}' in {place} (there: {there}; `sololab list values GAME` lists every path)"
            )
        })?;
        node = next;
        if !done.is_empty() && matches!(s, Step::Key(_)) {
            done.push('.');
        }
        done.push_str(&shown);
        if !canonical.is_empty() && !spelt.starts_with('[') {
            canonical.push('.');
        }
        canonical.push_str(&spelt);
    }
    match node {
        Node::Value(v) if !matches!(v, Value::InlineTable(_) | Value::Array(_)) => {
            Ok((v, canonical))
        }
        _ => Err("is a table or an array, not a value".to_string()),
    }
}

/// Sets the value at `path` in `doc` to `value`, keeping its formatting (comments, spacing);
/// returns the change in one spelling: the path's canonical spelling ([`locate`]) and the value
/// as written into the text (`24.0` for `24` given to a real value). Errors are messages
/// without the axis (the caller adds it).
fn set_one(
    doc: &mut DocumentMut,
    path: &str,
    value: &AxisValue,
) -> Result<(String, String), String> {
    let (v, canonical) = locate(doc, path)?;
    let new = match (&*v, value) {
        (Value::Integer(_), AxisValue::Int(n)) => Value::from(*n),
        (Value::Float(_), AxisValue::Int(n)) => Value::from(*n as f64),
        (Value::Float(_), AxisValue::Real(x)) => Value::from(x.get()),
        (Value::Boolean(_), AxisValue::Bool(b)) => Value::from(*b),
        (Value::String(_), AxisValue::Name(s)) => Value::from(s.as_str()),
        (old, new) => {
            let expected = match old {
                Value::Integer(_) => "an integer",
                Value::Float(_) => "a number",
                Value::Boolean(_) => "true or false",
                _ => "a name (in quotes)",
            };
            let is = match new {
                AxisValue::Int(_) => "an integer",
                AxisValue::Bool(_) => "a boolean",
                AxisValue::Name(_) => "a string",
                AxisValue::Real(_) => "a real number",
            };
            return Err(format!("{} is {is}, expected {expected}", written(new)));
        }
    };
    let written = new.to_string();
    let decor = v.decor().clone();
    *v = new;
    *v.decor_mut() = decor;
    Ok((canonical, written))
}

/// `text` (a content file) with the values at the given paths replaced, formatting kept, so
/// the lines and columns of the game's errors are those of `text`.
///
/// # Errors
/// `(path, message)` for the first path that is malformed, names nothing in the document
/// (listing what is there), is a table, gets a value of the wrong kind, or names the value an
/// earlier path names in another spelling (`monster[1].normal.hp` after
/// `monster.Demon.normal.hp`: one would silently override the other); a TOML syntax error of
/// `text` is reported with an empty path.
pub fn set_values(text: &str, values: &[(String, AxisValue)]) -> Result<String, (String, String)> {
    set_values_spelt(text, values).map(|(text, _)| text)
}

/// The changes of a [`set_values`] in one spelling, sorted: each canonical path with the value
/// as written into the text. Two lists of changes with equal spellings give one text.
type Spelt = Vec<(String, String)>;

/// [`set_values`], with the changes in one spelling ([`Spelt`]).
fn set_values_spelt(
    text: &str,
    values: &[(String, AxisValue)],
) -> Result<(String, Spelt), (String, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| (String::new(), e.message().trim().to_string()))?;
    let mut set: Vec<(String, String, &str)> = Vec::with_capacity(values.len());
    for (path, value) in values {
        let (canonical, written) = set_one(&mut doc, path, value).map_err(|m| (path.clone(), m))?;
        if let Some((_, _, first)) = set.iter().find(|(c, _, _)| *c == canonical) {
            return Err((
                path.clone(),
                format!("is given twice: '{first}' names the same content value ({canonical})"),
            ));
        }
        set.push((canonical, written, path));
    }
    let mut spelt: Spelt = set.into_iter().map(|(c, w, _)| (c, w)).collect();
    spelt.sort();
    Ok((doc.to_string(), spelt))
}

/// The canonical spelling of each of `paths` in the content `text`: the one
/// [`content_values`] lists, entries of an array by name where their names address them
/// (`monster.Demon.normal.hp`), else by a plain 1-based index (`campaign[2].alphas`). Two
/// paths name one value exactly when their canonical spellings are equal
/// (`monster[1].normal.hp` and `monster.Demon.normal.hp` when the Demon is the first monster).
/// `None` for a path that names no value of `text` (setting it says why).
///
/// # Errors
/// The TOML syntax error of `text`, in one line.
pub fn canonical_paths(text: &str, paths: &[&str]) -> Result<Vec<Option<String>>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.message().trim().to_string())?;
    Ok(paths
        .iter()
        .map(|p| locate(&mut doc, p).ok().map(|(_, c)| c))
        .collect())
}

/// The content value paths of a cell's setup values, with their values, in key order.
pub fn value_overrides(values: &SetupValues) -> Vec<(String, AxisValue)> {
    values
        .iter()
        .filter(|(k, _)| is_value_path(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// A compiled, changed content in the cache: type, compile function, source, changes.
type ValueKey = (TypeId, usize, PathBuf, Vec<(String, AxisValue)>);

/// The same content by its changes in one spelling ([`Spelt`], which give one text): type,
/// compile function, source, changes.
type SpeltKey = (TypeId, usize, PathBuf, Spelt);

type Compiled = &'static (dyn Any + Send + Sync);

/// The changed contents compiled so far: by the changes asked for, and by the changes in one
/// spelling, so two spellings of one change (`4` and `4.0` for a real value, `monster[1]` and
/// `monster.Demon`), which give one text, share one compiled content.
#[derive(Default)]
struct ValueCache {
    by_changes: HashMap<ValueKey, Compiled>,
    by_spelling: HashMap<SpeltKey, Compiled>,
}

static VALUE_CACHE: Mutex<Option<ValueCache>> = Mutex::new(None);

/// Whether two setups' contents are one content: the same reference. [`resolve_content`]
/// gives one reference to every cell whose content compiles from the same text (the same file,
/// however its path is spelt, with the same values, however they are spelt), and
/// [`super::load_cached`] one per file, so a game's setup compares its content
/// with this (its `PartialEq`): two setups equal this way start every game alike.
pub fn same_content<C>(a: &'static C, b: &'static C) -> bool {
    std::ptr::eq(a, b)
}

/// The content a cell's setup values name, with its content value paths applied: the one way
/// every game turns its `content` axis (`builtin` or a file path; absent is `builtin`) and the
/// value paths among `values` into `&'static` content.
///
/// Without value paths this is `builtin()` or [`load_cached`] of the file. With them, the
/// text (`builtin_text`, or the file's) gets the values ([`set_values`]) and goes through
/// `compile(text, source)`, the game's own loader, so its validation applies; each distinct
/// (source, values) is compiled once per process and leaked.
///
/// # Errors
/// - the errors of the `content` axis and of [`load_cached`];
/// - `axis 'PATH': MESSAGE` for a path that names no value (listing what is there) or a value
///   of the wrong kind;
/// - `axis 'PATH': VALUE is refused by the content: LOADER ERROR` when the game's loader
///   rejects the changed content (an out-of-range value), naming the changed value
///   responsible (the first that is refused on its own).
pub fn resolve_content<C: Send + Sync + 'static>(
    values: &SetupValues,
    builtin: fn() -> &'static C,
    builtin_text: &str,
    compile: fn(&str, &str) -> Result<C, SetupError>,
) -> Result<&'static C, SetupError> {
    let source = match values.get("content") {
        None => "builtin",
        Some(AxisValue::Name(s)) => s.as_str(),
        Some(other) => {
            return Err(axis_error(
                "content",
                format!("{} is not a name (builtin or a file path)", written(other)),
            ));
        }
    };
    let changes = value_overrides(values);
    if changes.is_empty() {
        return if source == "builtin" {
            Ok(builtin())
        } else {
            load_cached(Path::new(source), compile)
        };
    }
    let (canonical, text) = if source == "builtin" {
        (PathBuf::from("builtin"), builtin_text.to_string())
    } else {
        let read =
            |e: std::io::Error| SetupError(format!("{source}: cannot read content file: {e}"));
        let canonical = std::fs::canonicalize(source).map_err(read)?;
        (
            canonical,
            super::read_content_file(Path::new(source), source)?,
        )
    };
    let key: ValueKey = (
        TypeId::of::<C>(),
        compile as usize,
        canonical.clone(),
        changes.clone(),
    );
    let mut cache = VALUE_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let cache = cache.get_or_insert_with(ValueCache::default);
    if let Some(c) = cache
        .by_changes
        .get(&key)
        .and_then(|c| c.downcast_ref::<C>())
    {
        return Ok(c);
    }
    let (changed, spelt) = set_values_spelt(&text, &changes).map_err(|(path, m)| {
        if path.is_empty() {
            SetupError(format!("{source}: {m}"))
        } else {
            axis_error(&path, m)
        }
    })?;
    let spelt_key: SpeltKey = (TypeId::of::<C>(), compile as usize, canonical, spelt);
    if let Some(&c) = cache.by_spelling.get(&spelt_key)
        && let Some(content) = c.downcast_ref::<C>()
    {
        cache.by_changes.insert(key, c);
        return Ok(content);
    }
    let compiled = compile(&changed, source).map_err(|e| {
        // Name the change responsible: the first refused on its own, else all of them.
        let culprit = changes.iter().find(|c| {
            set_values(&text, std::slice::from_ref(c))
                .map(|t| compile(&t, source).is_err())
                .unwrap_or(true)
        });
        match culprit {
            Some((path, v)) => axis_error(
                path,
                format!("{} is refused by the content: {e}", written(v)),
            ),
            None => {
                let all: Vec<String> = changes
                    .iter()
                    .map(|(p, v)| format!("'{p}' = {}", written(v)))
                    .collect();
                SetupError(format!(
                    "content values {} are refused together by the content: {e}",
                    all.join(", ")
                ))
            }
        }
    })?;
    let compiled: &'static C = Box::leak(Box::new(compiled));
    cache.by_changes.insert(key, compiled);
    cache.by_spelling.insert(spelt_key, compiled);
    Ok(compiled)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# cards\n\
                        [[camp]]\n\
                        name = \"Wolves\"\n\
                        speed = 2  # fast\n\
                        reach = 1.5\n\
                        moves = [\"N\", \"E\"]\n\
                        attack = { name = \"Bite\", damage = 1 }\n\
                        upgrades = [{ hp = 1 }, { flying = true }]\n\
                        \n\
                        [[camp]]\n\
                        name = \"Bats\"\n\
                        speed = 3\n\
                        \n\
                        [[round]]\n\
                        spawn = 1\n\
                        [[round]]\n\
                        spawn = 2\n\
                        \n\
                        [boss]\n\
                        hp = 9\n";

    #[test]
    fn every_value_is_listed_by_a_path_that_sets_it() {
        let vals = content_values(TEXT).unwrap();
        let paths: Vec<&str> = vals.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "camp.Wolves.speed",
                "camp.Wolves.reach",
                "camp.Wolves.moves[1]",
                "camp.Wolves.moves[2]",
                "camp.Wolves.attack.damage",
                "camp.Wolves.upgrades[1].hp",
                "camp.Wolves.upgrades[2].flying",
                "camp.Bats.speed",
                "round[1].spawn",
                "round[2].spawn",
                "boss.hp",
            ]
        );
        assert_eq!(vals[0].current, "2");
        assert_eq!(vals[1].kind, ValueKind::Real);
        assert_eq!(
            vals[1].value,
            Some(AxisValue::Real(Real::new(1.5).unwrap()))
        );
        assert_eq!(vals[2].value, Some(AxisValue::Name("N".into())));
        // Setting every value to itself gives the same document.
        let same: Vec<(String, AxisValue)> = vals
            .iter()
            .filter_map(|v| v.value.clone().map(|x| (v.path.clone(), x)))
            .collect();
        let out = set_values(TEXT, &same).unwrap();
        assert_eq!(
            toml::from_str::<toml::Table>(&out).unwrap(),
            toml::from_str::<toml::Table>(TEXT).unwrap()
        );
    }

    #[test]
    fn setting_keeps_the_lines_and_comments() {
        let out = set_values(
            TEXT,
            &[
                ("camp.Wolves.speed".into(), AxisValue::Int(5)),
                ("camp.Wolves.reach".into(), AxisValue::Int(2)),
                ("round[2].spawn".into(), AxisValue::Int(7)),
                (
                    "camp.Wolves.upgrades[2].flying".into(),
                    AxisValue::Bool(false),
                ),
            ],
        )
        .unwrap();
        assert_eq!(out.lines().nth(3), Some("speed = 5  # fast"));
        assert_eq!(out.lines().nth(4), Some("reach = 2.0"));
        assert_eq!(out.lines().count(), TEXT.lines().count());
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(t["round"][1]["spawn"].as_integer(), Some(7));
        assert_eq!(t["round"][0]["spawn"].as_integer(), Some(1));
        assert_eq!(t["camp"][0]["upgrades"][1]["flying"].as_bool(), Some(false));
    }

    #[test]
    fn every_spelling_of_a_path_has_the_one_spelling_the_list_gives() {
        let paths = [
            "camp[1].speed",
            "camp.Wolves.speed",
            "camp[02].upgrades[+1].hp",
            "camp.Wolves.attack.damage",
            "round[01].spawn",
            "camp[3].speed",
            "camp.Wolves",
        ];
        assert_eq!(
            canonical_paths(TEXT, &paths).unwrap(),
            [
                Some("camp.Wolves.speed".to_string()),
                Some("camp.Wolves.speed".to_string()),
                None,
                Some("camp.Wolves.attack.damage".to_string()),
                Some("round[1].spawn".to_string()),
                None,
                None,
            ]
        );
        assert_eq!(
            canonical_paths(TEXT, &["camp[1].upgrades[+1].hp"]).unwrap(),
            [Some("camp.Wolves.upgrades[1].hp".to_string())]
        );
        // Two spellings of one value set in one go: one would silently override the other.
        let (p, m) = set_values(
            TEXT,
            &[
                ("camp.Wolves.speed".into(), AxisValue::Int(5)),
                ("camp[1].speed".into(), AxisValue::Int(1)),
            ],
        )
        .unwrap_err();
        assert_eq!(p, "camp[1].speed");
        assert_eq!(
            m,
            "is given twice: 'camp.Wolves.speed' names the same content value (camp.Wolves.speed)"
        );
    }

    #[test]
    fn bad_paths_and_kinds_say_what_is_there() {
        let err = |p: &str, v: AxisValue| set_values(TEXT, &[(p.into(), v)]).unwrap_err();
        let (p, m) = err("camp.Wolfs.speed", AxisValue::Int(1));
        assert_eq!(p, "camp.Wolfs.speed");
        assert!(
            m.starts_with("no 'Wolfs' in 'camp' (there: Wolves, Bats;"),
            "{m}"
        );
        let (_, m) = err("round[3].spawn", AxisValue::Int(1));
        assert!(
            m.starts_with("no '[3]' in 'round' (there: [1], [2];"),
            "{m}"
        );
        let (_, m) = err("boss.hp", AxisValue::Bool(true));
        assert_eq!(m, "true is a boolean, expected an integer");
        let (_, m) = err("camp.Wolves.attack", AxisValue::Int(1));
        assert_eq!(m, "is a table or an array, not a value");
        let (_, m) = err("camp.Wolves.moves", AxisValue::Int(1));
        assert_eq!(m, "is a table or an array, not a value");
        let (_, m) = err("camp.Wolves.name", AxisValue::Name("x".into()));
        assert!(m.starts_with("no 'name' in 'camp.Wolves'"), "{m}");
        let (_, m) = err("camp..speed", AxisValue::Int(1));
        assert!(m.starts_with("not a content value path"), "{m}");
        assert!(is_value_path("a.b") && is_value_path("a[1]") && !is_value_path("ruins"));
    }
}
