//! The content of I Bury the Gods as compiled tables: the Scoundrel's scores and weapon, the
//! asset cards and named decks, the wound deck, the fatelings and the encounters (with their
//! movement graphs). Read from `content/gods.toml` by [`super::content_file::parse`];
//! `CONTENT.md` gives every value's provenance.

use std::sync::OnceLock;

use super::geometry::{Nav, Pos, Pt, Shape};

/// The four abilities, in the order of every `[i8; 4]` of scores (The Scoundrel, Abilities).
pub const ABILITIES: [&str; 4] = ["strength", "aim", "wits", "dodge"];
/// Index of strength in [`ABILITIES`].
pub const STRENGTH: usize = 0;
/// Index of aim.
pub const AIM: usize = 1;
/// Index of wits.
pub const WITS: usize = 2;
/// Index of dodge.
pub const DODGE: usize = 3;

/// Cards in an asset deck (The Scoundrel, Assets: "Choose twenty cards").
pub const ASSET_DECK: usize = 20;
/// The most distinct asset cards a content file may define (hand counts are kept per card).
pub const MAX_ASSETS: usize = 8;
/// The most wound cards in the wound deck.
pub const MAX_WOUND_CARDS: usize = 16;
/// The most fatelings in one encounter (reserves included).
pub const MAX_FATELINGS: usize = 8;
/// The most obstacles in one encounter (cover move candidates are offered per obstacle).
pub const MAX_OBSTACLES: usize = 12;
/// The most objectives in one encounter.
pub const MAX_OBJECTIVES: usize = 3;
/// The longest round limit an encounter may set (bounds a game's length).
pub const MAX_ROUNDS: u8 = 30;
/// The most actions a Scoundrel phase may have (a content file's `actions`, 1 to 4).
pub const MAX_ACTIONS: u8 = 4;

/// What an asset card does (CONTENT.md, "Assets").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AssetEffect {
    /// Rain Fire (printed): re-roll one or more dice when shooting.
    RainFire,
    /// Precise Strike (printed): re-roll one die when making an attack.
    PreciseStrike,
    /// Assumed: turn one face-up wound card face down (its effect stops).
    SecondWind,
    /// Assumed: one extra action this Scoundrel phase.
    QuickStep,
    /// Assumed: draw two asset cards; may be used in addition to another asset this phase.
    Scavenge,
}

impl AssetEffect {
    /// The names used in content files.
    pub const NAMES: [(&'static str, AssetEffect); 5] = [
        ("rain_fire", AssetEffect::RainFire),
        ("precise_strike", AssetEffect::PreciseStrike),
        ("second_wind", AssetEffect::SecondWind),
        ("quick_step", AssetEffect::QuickStep),
        ("scavenge", AssetEffect::Scavenge),
    ];
    /// Whether it may be used in addition to another asset in the same Scoundrel phase (Using
    /// assets: "unless the asset specifically allows you to do so").
    pub const fn extra(self) -> bool {
        matches!(self, AssetEffect::Scavenge)
    }
}

/// One asset card.
#[derive(Clone, Debug)]
pub struct AssetCard {
    /// Printed name (`Rain Fire`).
    pub name: String,
    /// Its effect.
    pub effect: AssetEffect,
}

/// A named deck of [`ASSET_DECK`] asset cards.
#[derive(Clone, Debug)]
pub struct AssetDeck {
    /// The name the `assets` axis takes.
    pub name: String,
    /// The cards, as indices into [`Content::assets`], in content order.
    pub cards: [u8; ASSET_DECK],
}

/// What a face-up wound card does while it stays face up (CONTENT.md, "Wounds").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WoundEffect {
    /// No effect beyond counting toward the ten.
    None,
    /// −1 to the ability (`0..4`, [`ABILITIES`] order).
    Ability(u8),
    /// −1 inch to every move.
    Move,
}

/// One wound card.
#[derive(Clone, Debug)]
pub struct WoundCard {
    /// Name.
    pub name: String,
    /// Face-up effect.
    pub effect: WoundEffect,
}

/// Aspect bits of a fateling (Fate, Aspects).
pub mod aspect {
    /// Blind: line of sight not past 6 inches.
    pub const BLIND: u16 = 1;
    /// Ethereal: moves through obstacles, ends clear.
    pub const ETHEREAL: u16 = 2;
    /// Flight: moves over obstacles, ends clear.
    pub const FLIGHT: u16 = 4;
    /// Large target: −1 to the Scoundrel's target number when shooting it.
    pub const LARGE: u16 = 8;
    /// Relentless (name assumed): an attack as the first action does not end the activation.
    pub const RELENTLESS: u16 = 16;
    /// Volley (name assumed): a shoot as the first action does not end the activation.
    pub const VOLLEY: u16 = 32;
    /// Ranged X: may shoot within X inches and in line of sight (see [`super::Ranged`]).
    pub const RANGED: u16 = 64;
    /// Rush: acts in the fate rush phase.
    pub const RUSH: u16 = 128;
    /// Keen senses: the Scoundrel within 12 inches counts as in sight for its reactions.
    pub const KEEN: u16 = 256;
    /// Magic user (witches): its encounter's recurring events happen while it remains.
    pub const MAGIC: u16 = 512;
    /// The names used in content files, with their bits.
    pub const NAMES: [(&str, u16); 10] = [
        ("blind", BLIND),
        ("ethereal", ETHEREAL),
        ("flight", FLIGHT),
        ("large_target", LARGE),
        ("relentless", RELENTLESS),
        ("volley", VOLLEY),
        ("ranged", RANGED),
        ("rush", RUSH),
        ("keen_senses", KEEN),
        ("magic", MAGIC),
    ];
}

/// The ranged attack aspect's numbers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ranged {
    /// X: the most inches (edge to edge) to the target.
    pub range: f32,
    /// The shoot score: the target number of the Scoundrel's dodge test.
    pub shoot: i8,
}

/// A fateling profile: the four scores and the aspects (Fate, Fatelings).
#[derive(Clone, Debug)]
pub struct FatelingKind {
    /// Name (`Brute`).
    pub name: String,
    /// Move: inches per move action.
    pub move_in: f32,
    /// Attack: the target number of the Scoundrel's dodge test.
    pub attack: i8,
    /// Defense: the target number of the Scoundrel's attack and shoot tests.
    pub defense: i8,
    /// Wounds: it perishes at this many wounds.
    pub wounds: u8,
    /// Base radius in inches.
    pub radius: f32,
    /// [`aspect`] bits.
    pub aspects: u16,
    /// The ranged attack aspect, when it has one.
    pub ranged: Option<Ranged>,
}

/// A fateling placed by an encounter.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Its name in the trace and in `slay:` win conditions (`Guard 2`).
    pub name: String,
    /// Index into [`Content::fatelings`].
    pub kind: u8,
    /// Where it starts.
    pub start: Pos,
    /// Its patrol route (points visited in order, then from the first again); empty: it stands.
    pub patrol: Vec<Pt>,
    /// A reserve: off the table until an event summons it.
    pub reserve: bool,
    /// Index into [`Encounter::navs`] of its movement graph.
    pub nav: u8,
}

/// A magic user's recurring event (Fate: "a special event will happen regularly").
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum EventKind {
    /// The Scoundrel takes a dodge test against this target: weak hit a wound face down, miss a
    /// wound face up.
    Curse(i8),
    /// Every fateling on the table heals this many wounds.
    Heal(u8),
    /// The reserve fateling (placement index) enters at its start point if no base is there.
    Summon(u8),
}

/// A recurring event of an encounter.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Event {
    /// The magic user (placement index): the event happens only while it remains in game.
    pub caster: u8,
    /// At the end of every round whose number is a multiple of this.
    pub every: u8,
    /// What happens.
    pub kind: EventKind,
}

/// How an encounter is won (CONTENT.md, "Encounters").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Win {
    /// Every fateling perishes (reserves not yet summoned do not count).
    SlayAll,
    /// The named fateling (placement index) perishes.
    Slay(u8),
    /// The Scoundrel's base touches the objective (index) at the end of one of her actions.
    Reach(u8),
    /// She is still alive when the round limit passes.
    Survive,
}

/// A point the Scoundrel may have to reach.
#[derive(Clone, Debug)]
pub struct Objective {
    /// Name.
    pub name: String,
    /// Centre.
    pub at: Pt,
    /// Radius in inches: reached when her base touches the circle.
    pub radius: f32,
}

/// One encounter: the table, its obstacles, its fatelings and how it ends.
#[derive(Clone, Debug)]
pub struct Encounter {
    /// The name the `encounter` axis takes.
    pub name: String,
    /// One line saying what it is.
    pub title: String,
    /// Table width and height in inches.
    pub table: (f32, f32),
    /// Obstacles.
    pub obstacles: Vec<Shape>,
    /// Each obstacle's bounding box ([`Shape::bbox`]), in the order of `obstacles`: what
    /// [`Encounter::sight`] tests first.
    pub obstacle_boxes: Vec<[f32; 4]>,
    /// Where the Scoundrel starts.
    pub start: Pos,
    /// The fatelings, in activation order.
    pub fatelings: Vec<Placement>,
    /// Objectives.
    pub objectives: Vec<Objective>,
    /// How it is won.
    pub win: Win,
    /// After this many rounds the game ends: lost with [`Encounter::limit_cause`], or won for
    /// [`Win::Survive`].
    pub round_limit: u8,
    /// The loss cause (index into the loss causes) when the round limit passes.
    pub limit_cause: u8,
    /// Recurring events.
    pub events: Vec<Event>,
    /// Movement graphs, one per distinct base radius of walking models.
    pub navs: Vec<Nav>,
    /// The Scoundrel's graph.
    pub scoundrel_nav: u8,
}

impl Encounter {
    /// Whether `a` and `b` see each other on this table: [`super::geometry::line_of_sight`]
    /// over [`Encounter::obstacles`], the same answer, with the boxes precomputed.
    #[inline]
    pub fn sight(&self, a: Pt, b: Pt) -> bool {
        super::geometry::clear_of(a, b, &self.obstacles, &self.obstacle_boxes)
    }
}

/// The Scoundrel's fixed numbers.
#[derive(Clone, Debug)]
pub struct ScoundrelRules {
    /// The scores allocated to the four abilities (a permutation of these, any order).
    pub scores: [i8; 4],
    /// Base radius in inches.
    pub radius: f32,
    /// A move action: up to this many inches.
    pub move_in: f32,
    /// A sneak action (the fifth action, assumed): up to this many inches, silently.
    pub sneak_in: f32,
    /// Actions per Scoundrel phase.
    pub actions: u8,
    /// Asset cards in hand at the start.
    pub starting_hand: u8,
    /// Attack reach in inches.
    pub reach: f32,
    /// In combat within this many inches.
    pub combat: f32,
    /// The weapon's optimal range: +1 to the target number beyond it.
    pub optimal_range: f32,
    /// The weapon's longest range.
    pub max_range: f32,
}

/// Fate's fixed numbers (reactions; CONTENT.md, "Reactions").
#[derive(Clone, Debug)]
pub struct FateRules {
    /// A fateling attacks within this many inches.
    pub reach: f32,
    /// Hears a Scoundrel that made noise within this many inches (through obstacles).
    pub hearing: f32,
    /// Smells the Scoundrel within this many inches (through obstacles).
    pub smell: f32,
    /// Blind: sight not past this many inches.
    pub blind_sight: f32,
    /// Keen senses: within this many inches counts as in sight.
    pub keen: f32,
    /// The Scoundrel perishes at this many wound cards drawn.
    pub wounds_to_perish: u8,
}

/// A whole content file, compiled.
#[derive(Clone, Debug)]
pub struct Content {
    /// Where it came from: `builtin` or a path.
    pub source: String,
    /// The Scoundrel's numbers.
    pub scoundrel: ScoundrelRules,
    /// Fate's numbers.
    pub fate: FateRules,
    /// Asset cards (at most [`MAX_ASSETS`]).
    pub assets: Vec<AssetCard>,
    /// Named asset decks.
    pub decks: Vec<AssetDeck>,
    /// The wound deck, one entry per card.
    pub wounds: Vec<WoundCard>,
    /// The wound deck as a new game holds it, before the shuffle: per card, the index of the
    /// first card of its name (cards of one name are one card type, so a position, which names
    /// cards, reads back to the same state); computed once from `wounds`.
    pub wound_deck: [u8; MAX_WOUND_CARDS],
    /// Fateling profiles.
    pub fatelings: Vec<FatelingKind>,
    /// Encounters.
    pub encounters: Vec<Encounter>,
}

/// The embedded default content file.
pub const BUILTIN_TOML: &str = include_str!("content/gods.toml");

static BUILTIN: OnceLock<Content> = OnceLock::new();

/// The built-in content, parsed once.
///
/// # Panics
/// If the embedded file is invalid (a test guards this).
pub fn builtin() -> &'static Content {
    BUILTIN.get_or_init(|| {
        super::content_file::parse(BUILTIN_TOML, "builtin")
            .unwrap_or_else(|e| panic!("embedded gods content is invalid: {e}"))
    })
}

fn find<T>(v: &[T], name: &str, f: impl Fn(&T) -> &str) -> Option<u8> {
    v.iter()
        .position(|x| f(x).eq_ignore_ascii_case(name))
        .map(|i| i as u8)
}

impl Content {
    /// The index of an encounter by name (case-insensitive).
    pub fn encounter_index(&self, name: &str) -> Option<u8> {
        find(&self.encounters, name, |e| &e.name)
    }
    /// The index of an asset deck by name (case-insensitive).
    pub fn deck_index(&self, name: &str) -> Option<u8> {
        find(&self.decks, name, |d| &d.name)
    }
    /// The index of an asset card by name (case-insensitive).
    pub fn asset_index(&self, name: &str) -> Option<u8> {
        find(&self.assets, name, |a| &a.name)
    }
    /// The index of a wound card by name (case-insensitive): the first card of that name.
    pub fn wound_index(&self, name: &str) -> Option<u8> {
        find(&self.wounds, name, |w| &w.name)
    }
}
