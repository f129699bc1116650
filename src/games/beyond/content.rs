//! Beyond the Rift's cards as data: the compiled tables the rules read (hero boards and decks,
//! the response deck, enemies, wound and fatigue cards, items, terrain, scenarios and
//! campaigns), and the small effect vocabulary every card is written in.
//!
//! The tables come from a TOML file (`content/beyond.toml`, embedded as the default; its header
//! documents the format) read by [`super::content_file::parse`]. `CONTENT.md` beside this file
//! gives each value's provenance (`rulebook` + section, or `assumed` + why).

use std::sync::OnceLock;

/// Card indices are `u8` into [`Content::cards`]; this marks "no card".
pub const NO_CARD: u8 = u8::MAX;

/// A number that may depend on the hero count: `A/B/C/D` for 1/2/3/4 heroes (The Golden Rules).
pub type PerCount = [u8; 4];

/// The five action types (Playing Cards, Action Type).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActType {
    /// Make an attack (Primary and/or Secondary cost).
    Attack,
    /// Gain action points for the target hero.
    Points,
    /// Raise the defense against one enemy attack (Enemy Phase).
    Defense,
    /// A special action (its effects below).
    Special,
    /// Played at an unusual time, given by its [`Timing`].
    Reaction,
}

/// When a Reaction may be played (Action Type, Reaction: "the card will explicitly specify when
/// it is playable"). The vocabulary has one timing (CONTENT.md, "Reaction timing").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Timing {
    /// Not a reaction.
    None,
    /// Before an enemy attack on any hero, in the defense window (Enemy Attacks).
    EnemyAttack,
}

/// A stat a persistent card modifies while it is in a Hero Area.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stat {
    /// `+value` to every attack the hero initiates.
    Attack,
    /// `+value` to the hero's defense against every enemy attack.
    Defense,
    /// `+value` action points when the hero's points are reset (Draw Phase).
    Points,
    /// In the End Phase the hero removes `value` Wound/Fatigue cards from hand (End Phase).
    Heal,
    /// In the End Phase the hero draws `value` cards.
    Draw,
}

/// One effect of the vocabulary the shipped cards are written in (`effects` / `bonus` of a card
/// option in the content file).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// The target hero draws `n` cards from their Hero Deck.
    Draw(u8),
    /// The target hero puts `n` Wound/Fatigue cards from hand on their decks' discard piles.
    Heal(u8),
    /// Reveal `n` cards from the top of the playing hero's deck: `+1` to the action's value for
    /// each revealed card with an option of the same action type; then discard them (Revealing).
    Reveal(u8),
    /// The attacked enemy moves into the playing hero's Hero Area (Engage, without its cost).
    Engage,
    /// The attacked enemy moves into the Quest Area.
    Disengage,
    /// Attach `n` more Wound cards to the attacked enemy (only if the attack hit).
    Wound(u8),
    /// Attach `n` Fatigue cards to the attacked enemy (only if the attack hit).
    Fatigue(u8),
    /// The playing hero gains `n` action points.
    Points(u8),
    /// A Persistent card: stays in the target Hero Area and modifies `stat` by `value`; discarded
    /// after `uses` triggers (`0`: until the end of the scenario) (Persistent).
    Persistent {
        /// What it modifies.
        stat: Stat,
        /// By how much.
        value: u8,
        /// Triggers before it is discarded; `0` = never.
        uses: u8,
    },
    /// A Persistent Ally with stats like an enemy's; it may take a hit, Poison or Intimidate
    /// for its hero and is discarded at 0 health (Allies).
    Ally {
        /// Defense against the attacks it takes.
        defense: u8,
        /// Health (dies below 1).
        health: u8,
    },
}

/// One option of a card (a card has one, or two divided horizontally of which the heroes
/// choose one: Card Effects).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CardOpt {
    /// Its action type.
    pub act: ActType,
    /// Range 1 (own Hero Area) or 2 (any).
    pub range: u8,
    /// Primary cost (Attack: initiates or aids); `None` = cannot initiate.
    pub primary: Option<u8>,
    /// Secondary cost (Attack: added to an attack initiated by another card); `None` = cannot be
    /// added.
    pub secondary: Option<u8>,
    /// Cost of a non-attack option.
    pub cost: u8,
    /// Attack value (Attack, or a Reaction that counters).
    pub attack: u8,
    /// Response symbols: a Response card's value is added per symbol (Attack).
    pub response: u8,
    /// Action points the target hero receives (Points).
    pub points: u8,
    /// Defense value (Defense, Reaction).
    pub defense: u8,
    /// Reaction timing.
    pub timing: Timing,
    /// Effects resolved on play (Special, Points) or as Bonus effects after the action (Attack,
    /// Defense).
    pub effects: [Option<Effect>; 3],
}

/// What kind of card a card id names.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CardKind {
    /// A hero card (or an item card in a Hero Deck).
    Hero,
    /// A Wound card.
    Wound,
    /// A Fatigue card.
    Fatigue,
}

/// The five body parts (Body Part).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    /// Head.
    Head,
    /// Torso.
    Torso,
    /// Left arm.
    LeftArm,
    /// Right arm.
    RightArm,
    /// Legs.
    Legs,
}

/// Body part names as written in the content file.
pub const BODY_NAMES: [&str; 5] = ["head", "torso", "left_arm", "right_arm", "legs"];

/// A Wound or Fatigue card's modifiers (Wounds, Fatigue and Taking Damage): the top half for a
/// hero holding it, the bottom half when attached to an enemy or ally.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    /// Hero: attack modifier (played inside an attack).
    pub attack: i8,
    /// Hero: defense modifier (played inside a defense).
    pub defense: i8,
    /// Hero: action point modifier (played on its own).
    pub points: i8,
    /// Attached: range.
    pub e_range: i8,
    /// Attached: attack.
    pub e_attack: i8,
    /// Attached: defense.
    pub e_defense: i8,
    /// Attached: health.
    pub e_health: i8,
    /// Attached: engagement cost.
    pub e_engage: i8,
}

/// One card (hero, item, wound or fatigue).
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// Its name.
    pub name: String,
    /// What it is.
    pub kind: CardKind,
    /// Body part, for equipping items (Campaign Play and Equipping Items).
    pub body: Option<Body>,
    /// Its options (1 or 2); empty for wound and fatigue cards.
    pub opts: Vec<CardOpt>,
    /// Wound/Fatigue modifiers (all 0 for hero cards).
    pub mods: Modifiers,
}

/// Damage in Wound and Fatigue cards (a hero's damage value, an enemy's Damage).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Damage {
    /// Wound cards.
    pub wounds: u8,
    /// Fatigue cards.
    pub fatigue: u8,
}

/// One side of a hero board (Hero Area; Action Points; the Hero Board values).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Board {
    /// Starting action points.
    pub points: u8,
    /// Points to draw one card.
    pub draw_cost: u8,
    /// Points to discard one or more cards and draw that many.
    pub cycle_cost: u8,
    /// Points gained for discarding one card.
    pub discard_points: u8,
    /// Points per `+1` defense in the Enemy Phase.
    pub defense_rate: u8,
    /// The hero's damage value.
    pub damage: Damage,
    /// The hero-specific action (an option paid with points), if any.
    pub action: Option<CardOpt>,
}

/// A hero: name, class, alignment, the two board sides and the 26-card deck.
#[derive(Clone, Debug, PartialEq)]
pub struct Hero {
    /// Name.
    pub name: String,
    /// Class (item requirements).
    pub class: String,
    /// Alignment (item requirements).
    pub alignment: String,
    /// Standard side `[0]` and alternate side `[1]`.
    pub boards: [Board; 2],
    /// The Hero Deck as card ids (26 cards).
    pub deck: Vec<u8>,
}

/// Enemy types (Enemies; Cultist/Insectoid/Orc/Dwarf/Human X).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EnemyType {
    /// Cultist.
    Cultist,
    /// Insectoid.
    Insectoid,
    /// Orc.
    Orc,
    /// Dwarf.
    Dwarf,
    /// Human.
    Human,
}

/// Enemy type names as written in the content file.
pub const ENEMY_TYPE_NAMES: [&str; 5] = ["cultist", "insectoid", "orc", "dwarf", "human"];

/// An enemy card (Enemies: name, type, damage, engagement cost, range, attack, defense, health).
#[derive(Clone, Debug, PartialEq)]
pub struct Enemy {
    /// Name.
    pub name: String,
    /// Type.
    pub etype: EnemyType,
    /// Damage dealt when its attack hits.
    pub damage: Damage,
    /// Engagement cost.
    pub engage: u8,
    /// Range (1 or 2).
    pub range: u8,
    /// Attack.
    pub attack: u8,
    /// Defense.
    pub defense: u8,
    /// Health.
    pub health: u8,
}

/// The kinds of terrain card (Terrain Cards; Doors and Portcullises).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TerrainKind {
    /// A Door: opened by points or attacked.
    Door,
    /// A Portcullis: opened by points or attacked.
    Portcullis,
    /// Other terrain: interacted with by points only.
    Obstacle,
}

/// A terrain card.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// Name.
    pub name: String,
    /// Kind.
    pub kind: TerrainKind,
    /// Action point value to open/clear it (by hero count; the scenario's values).
    pub points: PerCount,
    /// Defense against attacks (doors and portcullises).
    pub defense: PerCount,
}

/// One enemy action of the activation table (Enemy Actions).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EnemyAct {
    /// Attack a hero within range.
    Attack,
    /// From the Quest Area, engage a hero.
    Engage,
    /// From a Hero Area, move into the Quest Area.
    Disengage,
    /// Engage a hero (may be the current one).
    Reengage,
    /// Add an enemy (index) from outside the game to this enemy's area.
    Summon(u8),
    /// Move to the area with the most other enemies of this enemy (index).
    Support(u8),
    /// All other enemies of this type in the same area perform the simple action (Attack,
    /// Engage, Disengage or Reengage).
    Order(EnemyType, SimpleAct),
    /// A Fatigue on top of the target hero's deck.
    Poison,
    /// The target hero discards `n` cards from hand and/or Persistent cards.
    Intimidate(u8),
    /// The target hero loses `n` action points.
    Obstruct(u8),
    /// Remove one attachment from up to `count` enemies (index) in this enemy's area.
    Heal(u8, u8),
}

/// The actions a type order can give.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SimpleAct {
    /// Attack.
    Attack,
    /// Engage.
    Engage,
    /// Disengage.
    Disengage,
    /// Re-engage.
    Reengage,
}

/// One entry of a column: the action, and the alternate after "/".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActSpec {
    /// The action.
    pub act: EnemyAct,
    /// The alternate.
    pub alt: Option<EnemyAct>,
}

/// The most actions in one cell of an activation table.
pub const MAX_CELL: usize = 3;
/// The most columns (Response card numbers).
pub const MAX_COLUMNS: usize = 6;

/// One row of an activation table: the enemy it activates and its actions per column.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationRow {
    /// The enemy (index) this row activates.
    pub enemy: u8,
    /// Per column (Response number 1..), the actions in written order.
    pub columns: Vec<Vec<ActSpec>>,
}

/// How a scenario is won.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Win {
    /// The Terrain Deck is empty and no terrain is in play.
    TerrainCleared,
    /// The Enemy Deck is empty and no enemy is in play.
    EnemiesDefeated,
    /// Every copy of one enemy (index into [`Content::enemies`]) is defeated: none left in
    /// the Enemy Deck, none alive in play (content key `win = "enemy_defeated"` with
    /// `win_enemy = NAME`; CONTENT.md, "The Huntmaster's Trail").
    EnemyDefeated(u8),
    /// Survive to the end of round `n`.
    Survive(u8),
}

/// The scenario-specific loss causes (indices into [`super::LOSS_CAUSES`] from 2).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Lose {
    /// The threat reaches `n` (`threat_maxed`).
    Threat(u8),
    /// More than `n` enemies in play at the end of a Quest Phase (`overrun`).
    Overrun(u8),
}

/// A scenario-specific hero action (Hero Phase: "potential scenario-specific action").
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioAction {
    /// Its name.
    pub name: String,
    /// Points paid.
    pub cost: u8,
    /// Change to the threat (usually negative).
    pub threat: i8,
    /// Only by a hero not engaged with an enemy.
    pub unengaged: bool,
    /// At most once per round for the team.
    pub once_per_round: bool,
}

/// A scenario (Campaign Play: setup, rules, activation, quest, win and lose).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Name.
    pub name: String,
    /// The campaign (index into [`Content::campaigns`]) it belongs to, if any.
    pub campaign: Option<u8>,
    /// Threat at setup.
    pub threat: u8,
    /// Threat added at the start of each round.
    pub threat_per_round: u8,
    /// The Enemy Deck (enemy indices, with repeats).
    pub enemy_deck: Vec<u8>,
    /// Enemies spawned from the deck into the Quest Area at setup (by hero count).
    pub start_enemies: PerCount,
    /// The Terrain Deck (terrain indices).
    pub terrain_deck: Vec<u8>,
    /// Terrain kept in the Quest Area: the Quest Phase spawns up to this many.
    pub terrain_in_play: u8,
    /// Quest-phase enemy spawns: rows of (threat at least, enemies by hero count); the last
    /// row whose threat is reached applies.
    pub spawns: Vec<(u8, PerCount)>,
    /// The enemy activation section.
    pub activation: Vec<ActivationRow>,
    /// How it is won.
    pub win: Win,
    /// Its own ways to lose.
    pub lose: Vec<Lose>,
    /// The round after which it is lost (`out_of_time`) if not won.
    pub rounds: u8,
    /// A scenario-specific action.
    pub action: Option<ScenarioAction>,
    /// Items drawn as the reward for winning (campaign play).
    pub reward_items: u8,
    /// Whether winning unlocks the alternate hero board sides (campaign play).
    pub unlock_alt: bool,
}

/// An item (Campaign Play and Equipping Items).
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Name.
    pub name: String,
    /// Body part it equips to.
    pub body: Body,
    /// Required class, if any.
    pub class: Option<String>,
    /// Required alignment, if any.
    pub alignment: Option<String>,
    /// Its cards (ids, with repeats).
    pub cards: Vec<u8>,
}

/// A campaign: its scenarios in order and its item deck.
#[derive(Clone, Debug, PartialEq)]
pub struct Campaign {
    /// Name.
    pub name: String,
    /// Scenario indices in order.
    pub scenarios: Vec<u8>,
    /// Item indices (the campaign's item deck).
    pub items: Vec<u8>,
}

/// One Response card: its number (the activation column) and value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// Activation column, `1..=columns`.
    pub number: u8,
    /// Value added to attacks, defenses and door values.
    pub value: u8,
}

/// The whole content, compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct Content {
    /// Where it came from (`builtin` or the path).
    pub source: String,
    /// Hand size by hero count.
    pub hand_size: PerCount,
    /// The action point cap.
    pub max_points: u8,
    /// All cards: hero cards, item cards, wounds, fatigue.
    pub cards: Vec<Card>,
    /// The heroes.
    pub heroes: Vec<Hero>,
    /// The Response Deck.
    pub response: Vec<Response>,
    /// Columns of every activation table (the highest Response number).
    pub columns: u8,
    /// The Wound Deck (card ids).
    pub wound_deck: Vec<u8>,
    /// The Fatigue Deck (card ids).
    pub fatigue_deck: Vec<u8>,
    /// Enemies.
    pub enemies: Vec<Enemy>,
    /// Terrain.
    pub terrain: Vec<Terrain>,
    /// Items.
    pub items: Vec<Item>,
    /// Scenarios.
    pub scenarios: Vec<Scenario>,
    /// Campaigns.
    pub campaigns: Vec<Campaign>,
    /// Card-id sets and facts the legal list reads on every call, derived from `cards` and
    /// `response` ([`CardIndex::new`]).
    pub index: CardIndex,
}

/// A set of card ids as a 256-bit mask: bit `id % 64` of word `id / 64`.
pub type IdSet = [u64; 4];

/// Whether card id `id` is in `set`.
#[inline]
pub const fn has_id(set: &IdSet, id: u8) -> bool {
    set[(id >> 6) as usize] & (1 << (id & 63)) != 0
}

/// A set of card ids as a bit mask: [`IdSet`] for any content, or one `u64` when every card id
/// is below 64 (the shipped content; [`CardIndex::narrow`]). Iteration is by ascending id.
pub trait Ids: Copy {
    /// The empty set.
    const EMPTY: Self;
    /// The set with `id` added (`id` below the set's width).
    fn with(self, id: u8) -> Self;
    /// Whether `id` is in the set.
    fn has(self, id: u8) -> bool;
    /// The ids in both sets.
    fn and(self, other: Self) -> Self;
    /// The ids in either set.
    fn or(self, other: Self) -> Self;
    /// The ids in `self` but not in `other`.
    fn and_not(self, other: Self) -> Self;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Calls `f` once per id, ascending.
    fn for_each(self, f: impl FnMut(u8));
}

impl Ids for u64 {
    const EMPTY: Self = 0;
    #[inline]
    fn with(self, id: u8) -> Self {
        self | 1 << (id & 63)
    }
    #[inline]
    fn has(self, id: u8) -> bool {
        id < 64 && self & (1 << id) != 0
    }
    #[inline]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline]
    fn and_not(self, other: Self) -> Self {
        self & !other
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn for_each(self, mut f: impl FnMut(u8)) {
        let mut bits = self;
        while bits != 0 {
            let b = bits.trailing_zeros();
            bits &= bits - 1;
            f(b as u8);
        }
    }
}

impl Ids for IdSet {
    const EMPTY: Self = [0; 4];
    #[inline]
    fn with(mut self, id: u8) -> Self {
        self[(id >> 6) as usize] |= 1 << (id & 63);
        self
    }
    #[inline]
    fn has(self, id: u8) -> bool {
        has_id(&self, id)
    }
    #[inline]
    fn and(self, b: Self) -> Self {
        [
            self[0] & b[0],
            self[1] & b[1],
            self[2] & b[2],
            self[3] & b[3],
        ]
    }
    #[inline]
    fn or(self, b: Self) -> Self {
        [
            self[0] | b[0],
            self[1] | b[1],
            self[2] | b[2],
            self[3] | b[3],
        ]
    }
    #[inline]
    fn and_not(self, b: Self) -> Self {
        [
            self[0] & !b[0],
            self[1] & !b[1],
            self[2] & !b[2],
            self[3] & !b[3],
        ]
    }
    #[inline]
    fn is_empty(self) -> bool {
        self[0] | self[1] | self[2] | self[3] == 0
    }
    #[inline]
    fn for_each(self, mut f: impl FnMut(u8)) {
        for (w, &word) in self.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                f((w as u32 * 64 + b) as u8);
            }
        }
    }
}

/// The card-id sets of a [`CardIndex`], in one set type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct IdSets<S> {
    /// Wound and Fatigue cards ([`CardKind`] not `Hero`).
    pub wf: S,
    /// Wound cards.
    pub wounds: S,
    /// Hero cards with an Attack option.
    pub attack: S,
    /// Hero cards with a Points or Special option.
    pub play: S,
    /// Hero cards with a Defense option or an enemy-attack Reaction.
    pub defend: S,
    /// Wound/Fatigue cards with an attack modifier (played inside an attack).
    pub wf_attack: S,
    /// Wound/Fatigue cards with a defense modifier (played inside a defense).
    pub wf_defense: S,
    /// Wound/Fatigue cards with a negative action-point modifier (played on their own).
    pub wf_points: S,
}

/// What the legal list asks of the cards on every call, computed once from [`Content::cards`]
/// and [`Content::response`] so it need not walk card options and effects each time. A speed
/// table only: every entry restates card fields (no rule of its own), and a content edit
/// rebuilds it with the content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardIndex {
    /// The sets over every card id.
    pub wide: IdSets<IdSet>,
    /// The same sets as single words, when every card id is below 64 (else `None`).
    pub narrow: Option<IdSets<u64>>,
    /// Per card id, bit `k` set when option `k` puts a Persistent card or an Ally in play.
    pub persistent: [u8; 256],
    /// Per card id, bit `k` set when option `k` is an Ally.
    pub ally: [u8; 256],
    /// The largest Response card value (0 without Response cards).
    pub max_response: u8,
    /// `Some((lo, hi))` when the Wound and Fatigue cards are exactly the ids `lo..hi` (the
    /// shipped content lists them first), so a hand's Wounds and Fatigue are counted by
    /// comparing ids (the features' hot path); else `None`.
    pub wf_range: Option<(u8, u8)>,
}

impl CardIndex {
    /// The index of `cards` (ids are positions; at most 255 cards, [`NO_CARD`] excluded) and
    /// the Response Deck `response`.
    pub fn new(cards: &[Card], response: &[Response]) -> CardIndex {
        let mut sets = IdSets {
            wf: IdSet::EMPTY,
            wounds: IdSet::EMPTY,
            attack: IdSet::EMPTY,
            play: IdSet::EMPTY,
            defend: IdSet::EMPTY,
            wf_attack: IdSet::EMPTY,
            wf_defense: IdSet::EMPTY,
            wf_points: IdSet::EMPTY,
        };
        let mut persistent = [0u8; 256];
        let mut ally = [0u8; 256];
        for (id, card) in cards.iter().enumerate().take(NO_CARD as usize) {
            let id8 = id as u8;
            let add = |set: &mut IdSet| *set = set.with(id8);
            if card.kind != CardKind::Hero {
                add(&mut sets.wf);
                if card.kind == CardKind::Wound {
                    add(&mut sets.wounds);
                }
                if card.mods.attack != 0 {
                    add(&mut sets.wf_attack);
                }
                if card.mods.defense != 0 {
                    add(&mut sets.wf_defense);
                }
                if card.mods.points < 0 {
                    add(&mut sets.wf_points);
                }
                continue;
            }
            for (k, o) in card.opts.iter().enumerate().take(8) {
                match o.act {
                    ActType::Attack => add(&mut sets.attack),
                    ActType::Points | ActType::Special => add(&mut sets.play),
                    ActType::Defense => add(&mut sets.defend),
                    ActType::Reaction if o.timing == Timing::EnemyAttack => add(&mut sets.defend),
                    ActType::Reaction => {}
                }
                for e in o.effects.iter().flatten() {
                    match e {
                        Effect::Persistent { .. } => persistent[id] |= 1 << k,
                        Effect::Ally { .. } => {
                            persistent[id] |= 1 << k;
                            ally[id] |= 1 << k;
                        }
                        _ => {}
                    }
                }
            }
        }
        let narrow = (cards.len() <= 64).then(|| IdSets {
            wf: sets.wf[0],
            wounds: sets.wounds[0],
            attack: sets.attack[0],
            play: sets.play[0],
            defend: sets.defend[0],
            wf_attack: sets.wf_attack[0],
            wf_defense: sets.wf_defense[0],
            wf_points: sets.wf_points[0],
        });
        CardIndex {
            wide: sets,
            narrow,
            persistent,
            ally,
            max_response: response.iter().map(|r| r.value).max().unwrap_or(0),
            wf_range: wf_range(cards),
        }
    }
}

/// [`CardIndex::wf_range`] of `cards`.
fn wf_range(cards: &[Card]) -> Option<(u8, u8)> {
    let cards = &cards[..cards.len().min(NO_CARD as usize)];
    let wf = |c: &Card| c.kind != CardKind::Hero;
    let lo = cards.iter().position(wf).unwrap_or(0);
    let hi = lo + cards[lo..].iter().take_while(|c| wf(c)).count();
    cards[hi..]
        .iter()
        .all(|c| !wf(c))
        .then_some((lo as u8, hi as u8))
}

/// The embedded default content file.
pub const BUILTIN_TOML: &str = include_str!("content/beyond.toml");

static BUILTIN: OnceLock<Content> = OnceLock::new();

/// The built-in content, parsed once.
///
/// # Panics
/// If the embedded file is invalid (a test guards this).
pub fn builtin() -> &'static Content {
    BUILTIN.get_or_init(|| {
        super::content_file::parse(BUILTIN_TOML, "builtin")
            .unwrap_or_else(|e| panic!("embedded beyond content is invalid: {e}"))
    })
}

fn find(names: impl Iterator<Item = String>, name: &str) -> Option<u8> {
    let want = name.replace('_', " ");
    names
        .enumerate()
        .find(|(_, n)| n.eq_ignore_ascii_case(&want) || n.eq_ignore_ascii_case(name))
        .map(|(i, _)| i as u8)
}

impl Content {
    /// A hero by name (case-insensitive; `_` for spaces).
    pub fn hero_index(&self, name: &str) -> Option<u8> {
        find(self.heroes.iter().map(|h| h.name.clone()), name)
    }
    /// A scenario by name (case-insensitive; `_` for spaces).
    pub fn scenario_index(&self, name: &str) -> Option<u8> {
        find(self.scenarios.iter().map(|h| h.name.clone()), name)
    }
    /// A campaign by name (case-insensitive; `_` for spaces).
    pub fn campaign_index(&self, name: &str) -> Option<u8> {
        find(self.campaigns.iter().map(|h| h.name.clone()), name)
    }
    /// A card by name (case-insensitive; `_` for spaces).
    pub fn card_index(&self, name: &str) -> Option<u8> {
        find(self.cards.iter().map(|h| h.name.clone()), name)
    }
    /// An enemy by name.
    pub fn enemy_index(&self, name: &str) -> Option<u8> {
        find(self.enemies.iter().map(|h| h.name.clone()), name)
    }
    /// A terrain card by name.
    pub fn terrain_index(&self, name: &str) -> Option<u8> {
        find(self.terrain.iter().map(|h| h.name.clone()), name)
    }
    /// An item by name.
    pub fn item_index(&self, name: &str) -> Option<u8> {
        find(self.items.iter().map(|h| h.name.clone()), name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wf_range_is_the_wound_and_fatigue_ids_when_contiguous_only() {
        let cards = builtin().cards.clone();
        let wf = cards.iter().filter(|c| c.kind != CardKind::Hero).count();
        assert_eq!(wf_range(&cards), Some((0, wf as u8)));
        // A hero card first shifts the range.
        let mut shifted = cards.clone();
        let hero = shifted.remove(wf);
        shifted.insert(0, hero);
        assert_eq!(wf_range(&shifted), Some((1, wf as u8 + 1)));
        // A hero card between two Wound or Fatigue cards: no range (the id-set count is used).
        let mut split = cards.clone();
        let hero = split.remove(wf);
        split.insert(1, hero);
        assert_eq!(wf_range(&split), None);
        // No Wound or Fatigue card: the empty range, which counts nothing.
        assert_eq!(wf_range(&cards[wf..]), Some((0, 0)));
    }
}
